import { mutation, query } from "./_generated/server";
import type { QueryCtx } from "./_generated/server";
import type { Id } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

async function findEnrollment(
  ctx: QueryCtx,
  studentId: Id<"students">,
  courseId: Id<"courses">,
) {
  return await ctx.db
    .query("enrollments")
    .withIndex("by_student_and_course", (q) =>
      q.eq("studentId", studentId).eq("courseId", courseId),
    )
    .unique();
}

export const addStudent = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("students"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("students", { name: args.name });
  },
});

export const addCourse = mutation({
  args: {
    title: v.string(),
  },
  returns: v.id("courses"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("courses", { title: args.title });
  },
});

export const enroll = mutation({
  args: {
    studentId: v.id("students"),
    courseId: v.id("courses"),
  },
  returns: v.id("enrollments"),
  handler: async (ctx, args) => {
    const student = await ctx.db.get("students", args.studentId);
    const course = await ctx.db.get("courses", args.courseId);
    if (student === null || course === null) {
      throw new ConvexError("Student or course not found");
    }
    const existing = await findEnrollment(ctx, args.studentId, args.courseId);
    if (existing !== null) {
      return existing._id;
    }
    return await ctx.db.insert("enrollments", {
      studentId: args.studentId,
      courseId: args.courseId,
    });
  },
});

export const unenroll = mutation({
  args: {
    studentId: v.id("students"),
    courseId: v.id("courses"),
  },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const existing = await findEnrollment(ctx, args.studentId, args.courseId);
    if (existing === null) {
      return false;
    }
    await ctx.db.delete("enrollments", existing._id);
    return true;
  },
});

export const coursesOf = query({
  args: {
    studentId: v.id("students"),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const enrollments = await ctx.db
      .query("enrollments")
      .withIndex("by_student_and_course", (q) => q.eq("studentId", args.studentId))
      .collect();
    enrollments.sort((a, b) => a._creationTime - b._creationTime);
    const courses = await Promise.all(
      enrollments.map((e) => ctx.db.get("courses", e.courseId)),
    );
    return courses.flatMap((course) => (course === null ? [] : [course.title]));
  },
});

export const studentsIn = query({
  args: {
    courseId: v.id("courses"),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const enrollments = await ctx.db
      .query("enrollments")
      .withIndex("by_course", (q) => q.eq("courseId", args.courseId))
      .collect();
    const students = await Promise.all(
      enrollments.map((e) => ctx.db.get("students", e.studentId)),
    );
    return students.flatMap((student) => (student === null ? [] : [student.name]));
  },
});
