import { ConvexHttpClient } from "convex/browser";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";

export function createClient(url: string): ConvexHttpClient {
  return new ConvexHttpClient(url);
}

export async function addTask(client: ConvexHttpClient, text: string): Promise<Id<"tasks">> {
  return await client.mutation(api.tasks.add, { text });
}

export async function completeTask(client: ConvexHttpClient, id: Id<"tasks">): Promise<void> {
  await client.mutation(api.tasks.complete, { id });
}

export async function openTaskTexts(client: ConvexHttpClient): Promise<string[]> {
  const tasks = await client.query(api.tasks.listOpen, {});
  return tasks.map((task) => task.text);
}
