import type { ConvexHttpClient } from "convex/browser";
import type { FunctionArgs, FunctionReturnType } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Doc, Id } from "../convex/_generated/dataModel";

export type NewNote = FunctionArgs<typeof api.notes.create>;
export type PinnedNote = FunctionReturnType<typeof api.notes.listPinned>[number];

export async function createNote(client: ConvexHttpClient, note: NewNote): Promise<Id<"notes">> {
  return await client.mutation(api.notes.create, { title: note.title, body: note.body });
}

export async function pinNote(client: ConvexHttpClient, id: Id<"notes">): Promise<void> {
  await client.mutation(api.notes.setPinned, { id, pinned: true });
}

export async function unpinNote(client: ConvexHttpClient, id: Id<"notes">): Promise<void> {
  await client.mutation(api.notes.setPinned, { id, pinned: false });
}

export async function pinnedNotes(client: ConvexHttpClient): Promise<PinnedNote[]> {
  return await client.query(api.notes.listPinned, {});
}

export async function getNote(client: ConvexHttpClient, id: Id<"notes">): Promise<Doc<"notes"> | null> {
  return await client.query(api.notes.get, { id });
}
