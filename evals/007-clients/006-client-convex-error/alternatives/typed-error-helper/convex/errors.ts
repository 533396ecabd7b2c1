import { ConvexError } from "convex/values";

export type BankErrorCode = "INVALID_AMOUNT" | "NOT_FOUND" | "INSUFFICIENT_FUNDS";

export function bankError(code: BankErrorCode): ConvexError<{ code: BankErrorCode }> {
  return new ConvexError({ code });
}
