import { ConvexError, v } from "convex/values";
import { action } from "./_generated/server";
import { internal } from "./_generated/api";

export const translate = action({
  args: { text: v.string(), target: v.union(v.literal("fr"), v.literal("de")) },
  returns: v.string(),
  handler: async (ctx, args) => {
    const apiKey = process.env.TRANSLATE_API_KEY;
    if (!apiKey) {
      throw new ConvexError({ code: "MISSING_CONFIG", message: "TRANSLATE_API_KEY is not set" });
    }
    const response = await fetch("https://translate.example.com/v2/translate", {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ text: args.text, target: args.target }),
    });
    if (!response.ok) {
      throw new ConvexError({ code: "UPSTREAM_ERROR", message: `Translation failed: ${response.status}` });
    }
    const body = (await response.json()) as { translation: string };
    await ctx.runMutation(internal.translations.save, {
      text: args.text,
      target: args.target,
      translation: body.translation,
    });
    return body.translation;
  },
});
