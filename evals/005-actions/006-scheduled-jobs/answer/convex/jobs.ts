import { v } from "convex/values";
import { internalAction, internalMutation, internalQuery, mutation, query } from "./_generated/server";
import { internal } from "./_generated/api";

export const submit = mutation({
  args: { input: v.string() },
  returns: v.id("jobs"),
  handler: async (ctx, args) => {
    const jobId = await ctx.db.insert("jobs", { input: args.input, status: "pending" });
    await ctx.scheduler.runAfter(0, internal.jobs.processJob, { jobId });
    return jobId;
  },
});

export const processJob = internalAction({
  args: { jobId: v.id("jobs") },
  returns: v.null(),
  handler: async (ctx, args): Promise<null> => {
    const input = await ctx.runQuery(internal.jobs.getJobInput, { jobId: args.jobId });
    if (input === null) {
      return null;
    }
    await ctx.runMutation(internal.jobs.completeJob, {
      jobId: args.jobId,
      result: input.toUpperCase(),
    });
    return null;
  },
});

export const getJobInput = internalQuery({
  args: { jobId: v.id("jobs") },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args) => {
    const job = await ctx.db.get("jobs", args.jobId);
    return job === null ? null : job.input;
  },
});

export const completeJob = internalMutation({
  args: { jobId: v.id("jobs"), result: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.patch("jobs", args.jobId, { status: "done", result: args.result });
    return null;
  },
});

export const getJob = query({
  args: { jobId: v.id("jobs") },
  returns: v.union(
    v.object({
      status: v.union(v.literal("pending"), v.literal("done")),
      result: v.optional(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const job = await ctx.db.get("jobs", args.jobId);
    if (job === null) {
      return null;
    }
    return job.result === undefined
      ? { status: job.status }
      : { status: job.status, result: job.result };
  },
});
