"""`tuner cluster scheduler` and `tuner cluster worker`: the machines a `--cluster` command uses."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tuner.cli._common import console

__all__ = ["register"]

cluster_app = typer.Typer(
    no_args_is_help=True,
    help="Workers on other machines for run, compare, tune, ablate and publish (--cluster ADDRESS or TUNER_CLUSTER).",
)


def _serve(make) -> None:
    """Run a Dask server until SIGINT or SIGTERM, then close it cleanly."""
    import asyncio
    import signal

    async def main() -> None:
        server = await make()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        done = asyncio.ensure_future(server.finished())
        await asyncio.wait({done, asyncio.ensure_future(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
        if not done.done():
            await server.close()

    asyncio.run(main())


def _warm_up() -> None:
    """Import litellm in the background (seconds): the first call this worker gets need not wait."""
    import threading

    from tuner.models.runtime import litellm_module

    threading.Thread(target=litellm_module, name="tuner-warm-up", daemon=True).start()


@cluster_app.command("scheduler")
def scheduler(
    host: Annotated[
        str,
        typer.Option(
            help="Interface to listen on (an address the workers and commands reach; keep it "
            "on a private network: the cluster runs what a connected client sends)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8786,
) -> None:
    """Start the scheduler: commands given `--cluster tcp://HOST:PORT` send their work through it."""
    from tuner.runs.remote import Claims

    async def make():
        from distributed import Scheduler

        s = Scheduler(host=host, port=port, dashboard=False, dashboard_address=f"{host}:0")
        s.add_plugin(Claims())
        await s
        console().print(
            f"scheduler at {s.address}: start `tuner cluster worker {s.address}` on each machine, then "
            f"run commands with --cluster {s.address} (or TUNER_CLUSTER={s.address})",
            soft_wrap=True,
        )
        return s

    _serve(make)


@cluster_app.command("worker")
def worker(
    address: Annotated[str, typer.Argument(help="The scheduler's address, e.g. tcp://10.0.0.5:8786.")],
    calls: Annotated[int, typer.Option(min=1, max=512, help="Provider calls this worker makes at once.")] = 16,
    grading: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Grading chunks at once (each grades its answers in parallel already; 1 per machine is usual).",
        ),
    ] = 1,
    name: Annotated[Optional[str], typer.Option(help="Worker name in errors and logs (default: host-pid).")] = None,
) -> None:
    """Start a worker on this machine: it makes provider calls (with this machine's API keys) and
    grades answers (with this machine's copy of the project, its suite files and grading tools)."""
    import os
    import shutil
    import socket

    from tuner.paths import find_project
    from tuner.runs.cluster import CALLS, GRADING

    project = find_project()
    os.environ["TUNER_HOME"] = str(project.root)  # the tasks read the suite and cache against this project
    label = name or f"{socket.gethostname()}-{os.getpid()}"
    tools = ", ".join(f"{t} {'yes' if shutil.which(t) else 'MISSING'}" for t in ("bwrap", "node", "gcc"))

    from tuner.runs.remote import code_identity

    code_identity()  # of the code this process loaded: files edited later do not pass for it

    async def make():
        from distributed import Worker

        w = Worker(
            address,
            nthreads=calls + grading,
            resources={CALLS: calls, GRADING: grading},
            name=label,
            local_directory=str(project.cache_dir / "cluster-worker"),
            dashboard=False,
        )
        await w
        _warm_up()
        console().print(
            f"worker {label} joined {address}: project {project.root}; {calls} calls and {grading} "
            f"grading chunk(s) at once; {tools}",
            soft_wrap=True,
        )
        return w

    try:
        _serve(make)
    except OSError as exc:
        from tuner.errors import ClusterError

        raise ClusterError(f"{address}: cannot join the scheduler ({exc})") from None


def register(app: typer.Typer) -> None:
    app.add_typer(cluster_app, name="cluster")
