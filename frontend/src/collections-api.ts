// The saved collections of the communities page (GET/POST/PATCH/DELETE
// /api/collections…): a communities run with a librarian's edits, kept as
// a named seed list in the project.

import { request, type Answer, type CommunityParams } from './api';
import type * as Gen from './api-types.gen';

/** CollectionCommunity is communities.CollectionCommunity: one community of a saved collection. */
export type CollectionCommunity = Gen.CollectionCommunity;

/** AddedSeed is communities.CollectionSeed: a seed added by hand. */
export type AddedSeed = Gen.CollectionSeed;

/** Collection is communities.Collection: a saved collection, its run's settings, picture, communities and added seeds. */
export type Collection = Gen.Collection;

/** CollectionSummary is communities.CollectionSummary: a collection as listed. */
export type CollectionSummary = Gen.CollectionSummary;

export type SeedFile = 'seeds.txt' | 'seeds.csv' | 'seeds.json';

const base = (id: number) => `/api/collections/${id}`;

export const collectionsApi = {
  list: (signal?: AbortSignal) => request<Answer<'GET /api/collections'>>('GET', '/api/collections', undefined, signal),
  get: (id: number, signal?: AbortSignal) => request<Answer<'GET /api/collections/{id}'>>('GET', base(id), undefined, signal),
  /** create runs an extraction and saves it as a new collection made by createdBy. */
  create: (p: CommunityParams, createdBy: string, signal?: AbortSignal) =>
    request<Answer<'POST /api/collections'>>('POST', '/api/collections', { ...p, created_by: createdBy }, signal),
  rename: (id: number, name: string) => request<Answer<'PATCH /api/collections/{id}'>>('PATCH', base(id), { name }),
  remove: (id: number) => request<Answer<'DELETE /api/collections/{id}'>>('DELETE', base(id)),
  editCommunity: (id: number, core: number, edit: { name?: string; kept?: boolean }) =>
    request<Answer<'PATCH /api/collections/{id}/communities/{core}'>>('PATCH', `${base(id)}/communities/${core}`, edit),
  addSeed: (id: number, url: string) => request<Answer<'POST /api/collections/{id}/seeds'>>('POST', `${base(id)}/seeds`, { url }),
  removeSeed: (id: number, url: string) =>
    request<Answer<'DELETE /api/collections/{id}/seeds'>>('DELETE', `${base(id)}/seeds?url=${encodeURIComponent(url)}`),
  /** fileURL is the download URL of a collection's seed list. */
  fileURL: (id: number, file: SeedFile) => `${base(id)}/${file}`,
};
