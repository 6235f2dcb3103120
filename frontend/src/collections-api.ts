// The saved collections of the communities page (GET/POST/PATCH/DELETE
// /api/collections…): a communities run with a librarian's edits, kept as
// a named seed list in the project.

import { request, type CommunityParams, type SiteGraph } from './api';

/** CollectionCommunity is one community of a saved collection. */
export interface CollectionCommunity {
  core: number;
  /** name is the librarian's name for it, its topic until renamed. */
  name: string;
  /** topic is the label of its most distinctive words, '' when its sites have no indexed page. */
  topic: string;
  /** kept is false when the librarian unchecked the seed. */
  kept: boolean;
  /** seed is the home page of one of its hub sites, '' when every hub site gave another community its seed. */
  seed: string;
  site: string;
  /** from_hub is the page of the hub site the seed was made from. */
  from_hub: string;
  hub_score: number;
  cover_density: number;
  hubs: string[] | null;
  authorities: string[] | null;
}

/** CollectionSeed is a seed added by hand. */
export interface AddedSeed {
  url: string;
  site: string;
}

/** Collection is a saved collection as stored: its run's settings, picture, communities and added seeds. */
export interface Collection {
  id: number;
  name: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** params.ended says why the run found fewer cores than asked: no link left, or only cores too small; absent when it found as many, or in a collection saved before it was kept. */
  /** params.off_main_eigenvector are the cores whose hub score is known and off the main eigenvector (0 to within 1e-20). */
  params: CommunityParams & { hits_iterations?: number; ended?: 'no_links' | 'small_cores'; off_main_eigenvector?: number[] };
  graph: SiteGraph | null;
  communities: CollectionCommunity[] | null;
  added: AddedSeed[] | null;
}

/** CollectionSummary is a collection as listed. */
export interface CollectionSummary {
  id: number;
  name: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  communities: number;
  kept: number;
  added: number;
}

export type SeedFile = 'seeds.txt' | 'seeds.csv' | 'seeds.json';

const base = (id: number) => `/api/collections/${id}`;

export const collectionsApi = {
  list: (signal?: AbortSignal) => request<CollectionSummary[] | null>('GET', '/api/collections', undefined, signal),
  get: (id: number, signal?: AbortSignal) => request<Collection>('GET', base(id), undefined, signal),
  /** create runs an extraction and saves it as a new collection made by createdBy. */
  create: (p: CommunityParams, createdBy: string, signal?: AbortSignal) =>
    request<Collection>('POST', '/api/collections', { ...p, created_by: createdBy }, signal),
  rename: (id: number, name: string) => request<Collection>('PATCH', base(id), { name }),
  remove: (id: number) => request<null>('DELETE', base(id)),
  editCommunity: (id: number, core: number, edit: { name?: string; kept?: boolean }) =>
    request<Collection>('PATCH', `${base(id)}/communities/${core}`, edit),
  addSeed: (id: number, url: string) => request<Collection>('POST', `${base(id)}/seeds`, { url }),
  removeSeed: (id: number, url: string) =>
    request<Collection>('DELETE', `${base(id)}/seeds?url=${encodeURIComponent(url)}`),
  /** fileURL is the download URL of a collection's seed list. */
  fileURL: (id: number, file: SeedFile) => `${base(id)}/${file}`,
};
