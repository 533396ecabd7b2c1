import { ActionRetrier, onCompleteValidator } from "@convex-dev/action-retrier";
import { ConvexError, v } from "convex/values";
import { components, internal } from "./_generated/api";
import { internalAction, internalMutation, mutation, query } from "./_generated/server";

const retrier = new ActionRetrier(components.actionRetrier, {
  initialBackoffMs: 1000,
  base: 2,
  maxFailures: 3,
});

export const startJob = mutation({
  args: { name: v.string(), failuresBeforeSuccess: v.number() },
  returns: v.id("jobs"),
  handler: async (ctx, args) => {
    const jobId = await ctx.db.insert("jobs", {
      name: args.name,
      failuresBeforeSuccess: args.failuresBeforeSuccess,
      attempts: 0,
      status: "running",
    });
    const runId = await retrier.run(ctx, internal.jobs.work, { jobId }, {
      onComplete: internal.jobs.jobDone,
    });
    await ctx.db.patch("jobs", jobId, { runId });
    return jobId;
  },
});

export const recordAttempt = internalMutation({
  args: { jobId: v.id("jobs") },
  returns: v.object({ attempts: v.number(), failuresBeforeSuccess: v.number() }),
  handler: async (ctx, args) => {
    const job = await ctx.db.get("jobs", args.jobId);
    if (job === null) {
      throw new ConvexError("Job not found");
    }
    const attempts = job.attempts + 1;
    await ctx.db.patch("jobs", args.jobId, { attempts });
    return { attempts, failuresBeforeSuccess: job.failuresBeforeSuccess };
  },
});

export const work = internalAction({
  args: { jobId: v.id("jobs") },
  returns: v.string(),
  handler: async (ctx, args): Promise<string> => {
    const { attempts, failuresBeforeSuccess }: { attempts: number; failuresBeforeSuccess: number } =
      await ctx.runMutation(internal.jobs.recordAttempt, {
      jobId: args.jobId,
    });
    if (attempts <= failuresBeforeSuccess) {
      throw new Error(`attempt ${attempts} failed`);
    }
    return `done after ${attempts} attempts`;
  },
});

export const jobDone = internalMutation({
  args: onCompleteValidator,
  returns: v.null(),
  handler: async (ctx, args) => {
    const job = await ctx.db
      .query("jobs")
      .withIndex("by_runId", (q) => q.eq("runId", args.runId))
      .unique();
    if (job === null) {
      return null;
    }
    if (args.result.type === "success") {
      await ctx.db.patch("jobs", job._id, { status: "succeeded", result: args.result.returnValue });
    } else {
      await ctx.db.patch("jobs", job._id, { status: "failed" });
    }
    return null;
  },
});

export const getJob = query({
  args: { jobId: v.id("jobs") },
  returns: v.object({
    name: v.string(),
    attempts: v.number(),
    status: v.union(v.literal("running"), v.literal("succeeded"), v.literal("failed")),
    result: v.union(v.string(), v.null()),
  }),
  handler: async (ctx, args) => {
    const job = await ctx.db.get("jobs", args.jobId);
    if (job === null) {
      throw new ConvexError("Job not found");
    }
    return { name: job.name, attempts: job.attempts, status: job.status, result: job.result ?? null };
  },
});
