import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";

const modules = import.meta.glob("./convex/**/*.*s");

async function enrollmentCount(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => (await ctx.db.query("enrollments").collect()).length);
}

test("coursesOf and studentsIn follow the join table in enrollment order", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.school.addStudent, { name: "Ann" });
  const bo = await t.mutation(api.school.addStudent, { name: "Bo" });
  const math = await t.mutation(api.school.addCourse, { title: "Math" });
  const art = await t.mutation(api.school.addCourse, { title: "Art" });
  const zoo = await t.mutation(api.school.addCourse, { title: "Zoology" });
  await t.mutation(api.school.enroll, { studentId: ann, courseId: zoo });
  await t.mutation(api.school.enroll, { studentId: bo, courseId: math });
  await t.mutation(api.school.enroll, { studentId: ann, courseId: math });
  await t.mutation(api.school.enroll, { studentId: ann, courseId: art });
  expect(await t.query(api.school.coursesOf, { studentId: ann })).toEqual(["Zoology", "Math", "Art"]);
  expect(await t.query(api.school.coursesOf, { studentId: bo })).toEqual(["Math"]);
  expect(await t.query(api.school.studentsIn, { courseId: math })).toEqual(["Bo", "Ann"]);
  expect(await t.query(api.school.studentsIn, { courseId: art })).toEqual(["Ann"]);
});

test("enroll is idempotent per pair", async () => {
  const t = convexTest(schema, modules);
  const s = await t.mutation(api.school.addStudent, { name: "S" });
  const c = await t.mutation(api.school.addCourse, { title: "C" });
  const first = await t.mutation(api.school.enroll, { studentId: s, courseId: c });
  const second = await t.mutation(api.school.enroll, { studentId: s, courseId: c });
  expect(second).toBe(first);
  expect(await enrollmentCount(t)).toBe(1);
  const doc = await t.run(async (ctx) => await ctx.db.get("enrollments", first));
  expect(doc).toMatchObject({ studentId: s, courseId: c });
});

test("enroll throws for a missing student or course", async () => {
  const t = convexTest(schema, modules);
  const s = await t.mutation(api.school.addStudent, { name: "S" });
  const c = await t.mutation(api.school.addCourse, { title: "C" });
  const goneS = await t.mutation(api.school.addStudent, { name: "gone" });
  const goneC = await t.mutation(api.school.addCourse, { title: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("students", goneS);
    await ctx.db.delete("courses", goneC);
  });
  await expect(t.mutation(api.school.enroll, { studentId: goneS, courseId: c })).rejects.toThrow();
  await expect(t.mutation(api.school.enroll, { studentId: s, courseId: goneC })).rejects.toThrow();
  expect(await enrollmentCount(t)).toBe(0);
});

test("unenroll deletes only that pair", async () => {
  const t = convexTest(schema, modules);
  const s = await t.mutation(api.school.addStudent, { name: "S" });
  const c1 = await t.mutation(api.school.addCourse, { title: "C1" });
  const c2 = await t.mutation(api.school.addCourse, { title: "C2" });
  await t.mutation(api.school.enroll, { studentId: s, courseId: c1 });
  await t.mutation(api.school.enroll, { studentId: s, courseId: c2 });
  expect(await t.mutation(api.school.unenroll, { studentId: s, courseId: c1 })).toBe(true);
  expect(await t.mutation(api.school.unenroll, { studentId: s, courseId: c1 })).toBe(false);
  expect(await t.query(api.school.coursesOf, { studentId: s })).toEqual(["C2"]);
  expect(await t.query(api.school.studentsIn, { courseId: c1 })).toEqual([]);
});

test("IDs of the wrong table are rejected", async () => {
  const t = convexTest(schema, modules);
  const s = await t.mutation(api.school.addStudent, { name: "S" });
  const c = await t.mutation(api.school.addCourse, { title: "C" });
  await expect(
    t.mutation(api.school.enroll, { studentId: c as unknown as Id<"students">, courseId: c }),
  ).rejects.toThrow();
  await expect(
    t.query(api.school.studentsIn, { courseId: s as unknown as Id<"courses"> }),
  ).rejects.toThrow();
});

test("the join table's indexes exist", async () => {
  const t = convexTest(schema, modules);
  const s = await t.mutation(api.school.addStudent, { name: "S" });
  const c = await t.mutation(api.school.addCourse, { title: "C" });
  await t.mutation(api.school.enroll, { studentId: s, courseId: c });
  const viaPair = await t.run(async (ctx) =>
    ctx.db
      .query("enrollments")
      .withIndex("by_student_and_course", (q) => q.eq("studentId", s).eq("courseId", c))
      .collect(),
  );
  const viaCourse = await t.run(async (ctx) =>
    ctx.db.query("enrollments").withIndex("by_course", (q) => q.eq("courseId", c)).collect(),
  );
  expect(viaPair).toHaveLength(1);
  expect(viaCourse).toHaveLength(1);
});
