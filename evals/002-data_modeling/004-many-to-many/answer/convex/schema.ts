import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  students: defineTable({
    name: v.string(),
  }),
  courses: defineTable({
    title: v.string(),
  }),
  enrollments: defineTable({
    studentId: v.id("students"),
    courseId: v.id("courses"),
  })
    .index("by_student_and_course", ["studentId", "courseId"])
    .index("by_course", ["courseId"]),
});
