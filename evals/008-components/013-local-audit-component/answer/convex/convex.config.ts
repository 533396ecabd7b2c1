import { defineApp } from "convex/server";
import auditLog from "./auditLog/convex.config";

const app = defineApp();
app.use(auditLog);

export default app;
