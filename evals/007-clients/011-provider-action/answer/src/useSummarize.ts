import { useAction } from "convex/react";
import { ConvexError } from "convex/values";
import { api } from "../convex/_generated/api";

export type SummarizeResult = { ok: true; words: number; chars: number } | { ok: false; code: string };

export function useSummarize(): (text: string) => Promise<SummarizeResult> {
  const summarize = useAction(api.summaries.summarize);
  return async (text: string) => {
    try {
      const { words, chars } = await summarize({ text });
      return { ok: true, words, chars };
    } catch (error) {
      if (error instanceof ConvexError) {
        return { ok: false, code: (error.data as { code: string }).code };
      }
      throw error;
    }
  };
}
