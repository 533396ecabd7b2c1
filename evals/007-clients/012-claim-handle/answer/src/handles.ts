import { useMutation, useQuery } from "convex/react";
import { ConvexError } from "convex/values";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";

export function useHandleAvailable(handle: string): boolean | undefined {
  const user = useQuery(api.users.byHandle, handle.length >= 3 ? { handle } : "skip");
  if (user === undefined) {
    return undefined;
  }
  return user === null;
}

export type ClaimResult = { ok: true; id: Id<"users"> } | { ok: false; code: string };

export function useClaimHandle(): (handle: string, displayName: string) => Promise<ClaimResult> {
  const claim = useMutation(api.users.claimHandle);
  return async (handle, displayName) => {
    try {
      const id = await claim({ handle, displayName });
      return { ok: true, id };
    } catch (error) {
      if (error instanceof ConvexError) {
        return { ok: false, code: (error.data as { code: string }).code };
      }
      throw error;
    }
  };
}
