import { mutation, query } from "./_generated/server";
import { v } from "convex/values";
import { circle, rectangle } from "./schema";

const system = { _id: v.id("shapes"), _creationTime: v.number() };

export const add = mutation({
  args: {
    shape: v.union(circle, rectangle),
  },
  returns: v.id("shapes"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("shapes", args.shape);
  },
});

export const listByKind = query({
  args: {
    kind: v.union(v.literal("circle"), v.literal("rectangle")),
  },
  returns: v.array(
    v.union(
      v.object({ ...system, ...circle.fields }),
      v.object({ ...system, ...rectangle.fields }),
    ),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("shapes")
      .withIndex("by_kind", (q) => q.eq("kind", args.kind))
      .collect();
  },
});

export const totalArea = query({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const shapes = await ctx.db.query("shapes").collect();
    let total = 0;
    for (const shape of shapes) {
      if (shape.kind === "circle") {
        total += Math.PI * shape.radius * shape.radius;
      } else {
        total += shape.width * shape.height;
      }
    }
    return total;
  },
});
