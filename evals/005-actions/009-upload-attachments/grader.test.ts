import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";
const modules = import.meta.glob("./convex/**/*.*s");

// What an upload through the URL leaves behind: a stored file (the upload itself is not simulated).
async function upload(t: ReturnType<typeof convexTest>, text: string): Promise<Id<"_storage">> {
  return await t.run(async (ctx) => await ctx.storage.store(new Blob([text], { type: "text/plain" })));
}

test("generateUploadUrl returns a URL string", async () => {
  const t = convexTest(schema, modules);
  const url = await t.mutation(api.attachments.generateUploadUrl, {});
  expect(typeof url).toBe("string");
  expect(url.length).toBeGreaterThan(0);
});

test("saveAttachment records uploads; listAttachments returns them oldest first with URLs", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(api.attachments.listAttachments, {})).toEqual([]);
  const s1 = await upload(t, "first");
  const s2 = await upload(t, "second");
  const a1 = await t.mutation(api.attachments.saveAttachment, { name: "a.txt", storageId: s1 });
  const a2 = await t.mutation(api.attachments.saveAttachment, { name: "b.txt", storageId: s2 });
  expect(await t.run(async (ctx) => await ctx.db.get("attachments", a1))).toMatchObject({ name: "a.txt", storageId: s1 });
  const list = await t.query(api.attachments.listAttachments, {});
  expect(list.map((a) => [a._id, a.name])).toEqual([[a1, "a.txt"], [a2, "b.txt"]]);
  for (const a of list) {
    expect(typeof a.url).toBe("string");
    expect(a.url!.length).toBeGreaterThan(0);
  }
  // a file deleted behind the attachment's back: url is null
  await t.run(async (ctx) => await ctx.storage.delete(s2));
  expect((await t.query(api.attachments.listAttachments, {}))[1]).toEqual({ _id: a2, name: "b.txt", url: null });
});

test("getFileInfo returns size and sha256 from the _storage table", async () => {
  const t = convexTest(schema, modules);
  const storageId = await upload(t, "hello");
  const id = await t.mutation(api.attachments.saveAttachment, { name: "h.txt", storageId });
  const expected = await t.run(async (ctx) => await ctx.db.system.get("_storage", storageId));
  const info = await t.query(api.attachments.getFileInfo, { attachmentId: id });
  expect(info).toEqual({ size: 5, sha256: expected!.sha256 });
  await t.run(async (ctx) => await ctx.storage.delete(storageId));
  expect(await t.query(api.attachments.getFileInfo, { attachmentId: id })).toBeNull();
  await t.run(async (ctx) => await ctx.db.delete("attachments", id));
  expect(await t.query(api.attachments.getFileInfo, { attachmentId: id })).toBeNull();
});

test("deleteAttachment removes the file and the document, false when already gone", async () => {
  const t = convexTest(schema, modules);
  const storageId = await upload(t, "bye");
  const keep = await t.mutation(api.attachments.saveAttachment, { name: "keep", storageId: await upload(t, "k") });
  const id = await t.mutation(api.attachments.saveAttachment, { name: "bye.txt", storageId });
  expect(await t.mutation(api.attachments.deleteAttachment, { attachmentId: id })).toBe(true);
  expect(await t.run(async (ctx) => await ctx.db.get("attachments", id))).toBeNull();
  expect(await t.run(async (ctx) => await ctx.storage.get(storageId))).toBeNull();
  expect(await t.mutation(api.attachments.deleteAttachment, { attachmentId: id })).toBe(false);
  expect((await t.query(api.attachments.listAttachments, {})).map((a) => a._id)).toEqual([keep]);
});
