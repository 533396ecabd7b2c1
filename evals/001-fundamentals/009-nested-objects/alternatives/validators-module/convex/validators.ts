import { v, type Infer } from "convex/values";

export const item = v.object({
  sku: v.string(),
  quantity: v.number(),
  unitPrice: v.number(),
});

export type Item = Infer<typeof item>;

export const orderFields = {
  customer: v.string(),
  items: v.array(item),
  total: v.number(),
};
