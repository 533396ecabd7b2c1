from __future__ import annotations

from tuner.models import build_messages, parse_files, render_files, user_message
from tuner.suites.convex import OUTPUT_FORMAT


def test_round_trip_of_the_requested_format():
    files = {"convex/schema.ts": 'import x from "y";\n', "src/App.tsx": "export default 1;\n"}
    assert parse_files(render_files(files)).files == files


def test_build_messages():
    msgs = build_messages("GUIDE", user_message("  Do the task.\n", OUTPUT_FORMAT))
    assert msgs[0] == {"role": "system", "content": "GUIDE"}
    assert msgs[1]["role"] == "user" and msgs[1]["content"].startswith("Do the task.")
    assert OUTPUT_FORMAT in msgs[1]["content"]
    assert [m["role"] for m in build_messages("", "t")] == ["user"]  # no empty system message


def test_heading_variants_fences_prose_and_crlf():
    text = (
        "Sure! Here is the code.\r\n\r\n# Files\r\n\r\n## convex/schema.ts\r\n\r\n```ts\r\nexport default 1;\r\n```\r\n"
        "### `convex/a.ts`\n```typescript\nconst a = 1;\n```\n"
        "**convex/b.tsx**\n\n```tsx\nb\n```\n"
        "`convex/c.ts`:\n~~~\nc\n~~~\n"
        "File: convex/e.ts\n```js\ne\n```\n"
        "And this is `convex/f.ts`:\n```ts\nf\n```\n"
        "1. **`convex/g.ts`**\n```ts\ng\n```\n"
        "Hope this helps!"
    )
    out = parse_files(text)
    assert out.error is None
    assert out.files == {
        "convex/schema.ts": "export default 1;\n",
        "convex/a.ts": "const a = 1;\n",
        "convex/b.tsx": "b\n",
        "convex/c.ts": "c\n",
        "convex/e.ts": "e\n",
        "convex/f.ts": "f\n",
        "convex/g.ts": "g\n",
    }


def test_path_comment_on_the_first_line():
    out = parse_files('```ts\n// convex/x.ts\n"use node";\nconst x = 1;\n```\n```ts\n// File: convex/y.ts\ny\n```')
    assert out.files == {"convex/x.ts": '"use node";\nconst x = 1;\n', "convex/y.ts": "y\n"}


def test_prose_mention_does_not_name_a_later_block():
    out = parse_files("This uses `convex/schema.ts` as before.\n\nSome more words.\n\n```ts\nx\n```\n")
    assert out.files == {} and "none names its file" in out.error


def test_heading_wins_over_a_prose_mention():
    out = parse_files("## convex/a.ts\nIt imports from `convex/schema.ts`:\n```ts\na\n```\n")
    assert list(out.files) == ["convex/a.ts"]


def test_unparseable_answers_say_why():
    assert "no fenced code blocks" in parse_files("I cannot help with that.").error
    assert "none names its file" in parse_files("```ts\nx\n```").error


def test_paths_are_kept_inside_the_project():
    out = parse_files("## ../evil.ts\n```ts\nx\n```\n## /etc/x.ts\n```ts\ny\n```\n## ./convex/ok.ts\n```ts\nz\n```")
    assert out.files == {"convex/ok.ts": "z\n"}


def test_unclosed_block_runs_to_the_end_and_last_duplicate_wins():
    out = parse_files("## convex/a.ts\n```ts\nold\n```\n## convex/a.ts\n```ts\nnew\n")
    assert out.files == {"convex/a.ts": "new\n"}


def test_a_kind_names_the_extensions_its_answers_may_have():
    answer = "## src/slug.c\n```c\nint slug(void) { return 0; }\n```\n\n## tests/x.go\n```go\npackage x\n```\n"
    # Not a known extension by default: the parser says why instead of guessing.
    assert (
        parse_files(answer).error == "2 code block(s) but none names its file (expected a '## <path>' line before each)"
    )
    got = parse_files(answer, extensions=("c", "h"))
    assert got.files == {"src/slug.c": "int slug(void) { return 0; }\n"}
    # A file named on the block's first line as a comment, in a language commented with "//".
    got = parse_files("```c\n// src/a.h\n#define A 1\n```\n", extensions=("c", "h"))
    assert got.files == {"src/a.h": "#define A 1\n"}
