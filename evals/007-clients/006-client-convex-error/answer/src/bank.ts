import type { ConvexHttpClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";

export type BankResult = { ok: true; balance: number } | { ok: false; code: string };

function failure(error: unknown): BankResult {
  if (error instanceof ConvexError) {
    return { ok: false, code: (error.data as { code: string }).code };
  }
  throw error;
}

export async function deposit(client: ConvexHttpClient, accountId: Id<"accounts">, amount: number): Promise<BankResult> {
  try {
    const balance = await client.mutation(api.accounts.deposit, { accountId, amount });
    return { ok: true, balance };
  } catch (error) {
    return failure(error);
  }
}

export async function withdraw(client: ConvexHttpClient, accountId: Id<"accounts">, amount: number): Promise<BankResult> {
  try {
    const balance = await client.mutation(api.accounts.withdraw, { accountId, amount });
    return { ok: true, balance };
  } catch (error) {
    return failure(error);
  }
}
