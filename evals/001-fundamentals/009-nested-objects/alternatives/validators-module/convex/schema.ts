import { defineSchema, defineTable } from "convex/server";
import { orderFields } from "./validators";

export default defineSchema({
  orders: defineTable(orderFields),
});
