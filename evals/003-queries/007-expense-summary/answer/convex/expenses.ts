import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const add = mutation({
  args: {
    userId: v.string(),
    category: v.string(),
    amount: v.number(),
    date: v.number(),
  },
  returns: v.id("expenses"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("expenses", {
      userId: args.userId,
      category: args.category,
      amount: args.amount,
      date: args.date,
    });
  },
});

export const summary = query({
  args: {
    userId: v.string(),
    from: v.number(),
    to: v.number(),
  },
  returns: v.object({
    count: v.number(),
    total: v.number(),
    largest: v.union(v.number(), v.null()),
    byCategory: v.array(
      v.object({
        category: v.string(),
        total: v.number(),
      }),
    ),
  }),
  handler: async (ctx, args) => {
    const expenses = await ctx.db
      .query("expenses")
      .withIndex("by_user_and_date", (q) =>
        q.eq("userId", args.userId).gte("date", args.from).lt("date", args.to),
      )
      .collect();
    let total = 0;
    let largest: number | null = null;
    const perCategory = new Map<string, number>();
    for (const expense of expenses) {
      total += expense.amount;
      if (largest === null || expense.amount > largest) {
        largest = expense.amount;
      }
      perCategory.set(expense.category, (perCategory.get(expense.category) ?? 0) + expense.amount);
    }
    const byCategory = [...perCategory.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([category, categoryTotal]) => ({ category, total: categoryTotal }));
    return { count: expenses.length, total, largest, byCategory };
  },
});
