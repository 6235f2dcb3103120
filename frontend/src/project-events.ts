// projectData tells the app shell and the views that the project's data
// changed outside a crawl (an import ended), so that the top bar's counts
// and the lists they hold are read again without a reload.

/** projectData dispatches 'change' when the project's sites or pages changed outside a crawl. */
export const projectData = new EventTarget();

/** projectChanged dispatches projectData's 'change'. */
export function projectChanged(): void {
  projectData.dispatchEvent(new Event('change'));
}
