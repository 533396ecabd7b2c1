import { defineApp } from "convex/server";
import audit from "./auditLog/convex.config.js";

const app = defineApp();
app.use(audit, { name: "auditLog" });

export default app;
