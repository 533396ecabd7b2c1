"""A tiny OpenAI-compatible chat server on 127.0.0.1 for driving the real-provider path.

The requested model name picks the behaviour (``openai/<mode>`` with ``api_base`` pointing here):

normal      200 with a parseable answer and usage
slow        sleeps ``SLOW_S`` before answering normally
r429        429 with ``Retry-After: 1`` on the first request, then normal
always429   429 with ``retry-after-ms: 50`` every time
r500        500 every time
flaky500    500 on the first request, then normal
malformed   200 with a body that is not JSON
empty       200 with empty content
auth        401 (echoing a fake key, which must be scrubbed)
steady      200 after ``server.latency_s``, an answer that depends on the request (see
            ``server.answer_for``); counted per request body (``server.body_counts``) and logged
            with arrival and answer times (``server.calls``), to prove a call is not bought twice
faulty      as steady, but ``server.fault_rate`` of the calls (evenly spread) fail, in turn:
            429 with Retry-After, 500, 503, a timeout, a connection reset, a malformed body, an
            empty body, a truncated body (``FAULTS``); ``server.faults`` counts each kind
echokey     500 whose message echoes the credentials the client sent (Authorization, api-key)
analyst     after ``ANALYST_S``, a DSPy-format analyst answer (field markers, or JSON when asked for JSON)
analyst-malformed  the same with a classification outside the allowed set (every time)
analyst-echo  an analyst answer whose reasoning echoes the request's API key
proposer    after ``ANALYST_S``, a DSPy-format proposer answer (one candidate rule)
scripted    the reply ``server.script(request)`` gives: a dict with any of ``content``,
            ``reasoning_content``, ``tool_calls`` ([{name, arguments}]) and ``finish_reason``, so a
            test answers the way a real model writes (reasoning fields, tool calls, cut-off answers)

Any other name answers normally. ``POST .../v1/messages`` answers in Anthropic's format, so a
panel entry for ``anthropic/...`` with ``api_base`` pointing here works too.

``server.counts[mode]`` counts requests; ``server.times[mode]`` their arrival times;
``server.max_in_flight`` the most requests ever handled at once.
"""

from __future__ import annotations

import hashlib
import json
import socket
import struct
import threading
import time
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SLOW_S = 2.0
ANALYST_S = 0.25
ANSWER = "# Files\n\n## convex/a.ts\n\n```ts\nexport const a = 1;\n```\n"


_ANALYST = {
    "error_line": "AssertionError: expected a ValueError",
    "classification": "MODEL_FAULT",
    "root_cause": "returns None instead of raising",
    "reasoning": "The code returns None where the task asks for a ValueError. The grader checks exactly that.",
    "problematic_snippet": "return None",
    "expected_snippet": "raise ValueError(...)",
}
_DSPY_MODES = {
    "analyst": _ANALYST,
    "analyst-malformed": {**_ANALYST, "classification": "PROBABLY_FINE"},
    "analyst-echo": _ANALYST,
    "proposer": {
        "rule_name": "raise-not-return-none",
        "title": "Raise ValueError for invalid input",
        "rule_text": "When input is invalid, raise `ValueError` with a message that names the bad value. "
        "Returning None hides the error from the caller.",
    },
}


class _Handler(BaseHTTPRequestHandler):
    server: FakeOpenAI

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _ok(self, content: str) -> None:
        self._reply({"content": content})

    def _reply(self, reply: dict) -> None:
        message = {"role": "assistant", "content": reply.get("content")}
        if reply.get("reasoning_content") is not None:
            message["reasoning_content"] = reply["reasoning_content"]
        if reply.get("tool_calls"):
            message["tool_calls"] = [
                {"id": f"call_{n}", "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                for n, c in enumerate(reply["tool_calls"])
            ]
        finish = reply.get("finish_reason") or ("tool_calls" if reply.get("tool_calls") else "stop")
        body = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": "fake-model",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18, **self.server.usage},
        }
        self._send(200, json.dumps(body).encode())

    def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        body = {"error": {"message": message, "type": "error", "code": status}}
        self._send(status, json.dumps(body).encode(), headers)

    def _anthropic_ok(self, request: dict) -> None:
        body = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": request.get("model", "fake"),
            "content": [{"type": "text", "text": ANSWER}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 11, "output_tokens": 7},
        }
        self._send(200, json.dumps(body).encode())

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        mode = request.get("model", "normal")
        if self.path.rstrip("/").endswith("/messages"):
            with self.server.lock:
                self.server.counts[mode] += 1
                self.server.bodies[mode].append(request)
            return self._anthropic_ok(request)
        with self.server.lock:
            self.server.counts[mode] += 1
            self.server.times[mode].append(time.monotonic())
            self.server.bodies[mode].append(request)
            n = self.server.counts[mode]
        if mode == "slow":
            time.sleep(SLOW_S)
        if mode == "r429" and n == 1:
            return self._error(429, "rate limited", {"Retry-After": "1"})
        if mode == "always429":
            return self._error(429, "rate limited", {"retry-after-ms": "50"})
        if mode == "r500" or (mode == "flaky500" and n == 1):
            return self._error(500, "server exploded")
        if mode == "malformed":
            return self._send(200, b'{"id": "x", "choices": [ {not json')
        if mode == "empty":
            return self._ok("")
        if mode == "auth":
            return self._error(401, "Incorrect API key provided: sk-abcdef1234567890XYZ. Bearer sk-zzzzzzzz")
        if mode in ("steady", "faulty"):
            return self._steady(request, mode)
        if mode == "echokey":
            token = (self.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
            sent = f"no quota left for key {token} (api-key {self.headers.get('api-key')})"
            self.server.echoed.append(sent)
            return self._error(500, f"upstream failed for request with {sent}")
        if mode in _DSPY_MODES:
            return self._dspy_answer(mode, request)
        if mode == "scripted":
            return self._reply(self.server.script(request))
        return self._ok(ANSWER)

    # steady / faulty ---------------------------------------------------------------------------
    def _steady(self, request: dict, mode: str) -> None:
        digest = hashlib.sha256(json.dumps(request.get("messages"), sort_keys=True).encode()).hexdigest()
        with self.server.lock:
            self.server.body_counts[digest] += 1
            call = {"body": digest, "arrived": time.monotonic(), "answered": None}
            self.server.calls.append(call)
        fault = None
        if mode == "faulty":
            with self.server.lock:
                # Exactly ``fault_rate`` of the faulty calls fail, spread evenly, the kinds in turn:
                # a short run meets every one of them.
                self.server.faulty_calls += 1
                n, rate = self.server.faulty_calls, self.server.fault_rate
                if int(n * rate) > int((n - 1) * rate):
                    fault = FAULTS[sum(self.server.faults.values()) % len(FAULTS)]
                    self.server.faults[fault] += 1
        if self.server.latency_s:
            time.sleep(self.server.latency_s)
        if fault is None:
            self._ok(self.server.answer_for(request))
        else:
            self._fault(fault)
        call["answered"] = time.monotonic()

    def _fault(self, fault: str) -> None:
        if fault == "429":
            return self._error(429, "rate limited", {"Retry-After": "1"})
        if fault in ("500", "503"):
            return self._error(int(fault), "upstream trouble")
        if fault == "timeout":
            time.sleep(self.server.timeout_sleep_s)
            return self._error(504, "too late")  # the client has given up long before
        if fault == "reset":
            # SO_LINGER 0: close() sends a TCP RST instead of a clean end of stream.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return None
        if fault == "malformed":
            return self._send(200, b'{"id": "x", "choices": [ {not json')
        if fault == "empty":
            return self._send(200, b"")
        if fault == "truncated":
            # Promise a whole answer, send its first half, hang up.
            body = json.dumps(
                {
                    "id": "chatcmpl-t",
                    "object": "chat.completion",
                    "model": "fake-model",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER}}],
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return None
        raise AssertionError(fault)

    def _dspy_answer(self, mode: str, request: dict) -> None:
        time.sleep(ANALYST_S)
        fields = dict(_DSPY_MODES[mode])
        if mode == "analyst-echo":
            key = self.headers.get("Authorization", "")
            fields["reasoning"] = f"Called with {key}; the key is {key.removeprefix('Bearer ')}."
        last = request.get("messages", [{}])[-1].get("content") or ""
        if isinstance(last, list):
            last = "".join(p.get("text", "") for p in last if isinstance(p, dict))
        if "JSON object" in last:
            return self._ok(json.dumps(fields))
        self._ok("\n\n".join(f"[[ ## {k} ## ]]\n{v}" for k, v in fields.items()) + "\n\n[[ ## completed ## ]]")

    def parse_request(self) -> bool:
        # A request counts as in flight from the moment its request line has arrived, not while a
        # kept-alive connection waits for its next one (that idle wait read a bound of 4 as 5).
        with self.server.lock:
            self.server.in_flight += 1
            self.server.max_in_flight = max(self.server.max_in_flight, self.server.in_flight)
        self._counted = True
        return super().parse_request()

    def handle_one_request(self) -> None:
        self._counted = False
        try:
            super().handle_one_request()
        finally:
            if self._counted:
                with self.server.lock:
                    self.server.in_flight -= 1


FAULTS = ("429", "500", "503", "timeout", "reset", "malformed", "empty", "truncated")


def default_answer(request: dict) -> str:
    """An answer that names the request it answers (so a mix-up shows in the stored output)."""
    digest = hashlib.sha256(json.dumps(request.get("messages"), sort_keys=True).encode()).hexdigest()[:16]
    return f"# Files\n\n## app/answer.py\n\n```python\n# answer to request {digest}\nVALUE = 1\n```\n"


class FakeOpenAI(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.lock = threading.Lock()
        self.counts: dict[str, int] = defaultdict(int)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.bodies: dict[str, list[dict]] = defaultdict(list)
        # steady / faulty / echokey
        self.latency_s = 0.0
        self.answer_for = default_answer
        self.body_counts: dict[str, int] = defaultdict(int)
        self.calls: list[dict] = []
        self.fault_rate = 0.3
        self.faulty_calls = 0
        self.faults: dict[str, int] = defaultdict(int)
        self.timeout_sleep_s = 3.0
        self.echoed: list[str] = []
        self.script = lambda request: {"content": ANSWER}
        # Laid over every OpenAI-format reply's usage (e.g. prompt_tokens_details.cached_tokens).
        self.usage: dict = {}
        self.in_flight = 0
        self.max_in_flight = 0
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    def handle_error(self, request, client_address) -> None:
        pass  # a client that timed out and hung up is part of the tests

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
