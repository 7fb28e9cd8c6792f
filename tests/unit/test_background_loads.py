"""Start-up's background loads (service/usecases/runtime.py `in_background`): while any runs, the interpreter switches
threads every LOADING_SWITCH_S, so the serving thread is not kept waiting behind a loader's Python work; when the last
ends — or fails — the switch interval is what it was before."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

import pytest

from service.usecases import runtime
from service.usecases.runtime import LOADING_SWITCH_S, in_background


def _wait(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the failing load's traceback
def test_the_switch_interval_is_short_while_loads_run_and_restored_after() -> None:
    _wait(lambda: runtime._loads_running == 0)  # an app another test started may still be loading
    before = sys.getswitchinterval()
    assert before != LOADING_SWITCH_S
    first, second, done = threading.Event(), threading.Event(), []

    def slow(gate: threading.Event) -> Callable[[], None]:
        def load() -> None:
            gate.wait(10)
            done.append(gate)
        return load

    def broken() -> None:
        raise RuntimeError("a load that fails")

    in_background(slow(first), broken)
    assert sys.getswitchinterval() == LOADING_SWITCH_S
    in_background(slow(second))  # a second runtime in the same process, while the first one's load still runs
    first.set()
    _wait(lambda: len(done) == 1)
    assert sys.getswitchinterval() == LOADING_SWITCH_S  # the second load still runs
    second.set()
    _wait(lambda: sys.getswitchinterval() == before)
    assert len(done) == 2


def test_a_process_that_ends_while_the_loads_run_exits_cleanly() -> None:
    # A CLI command that needs no gate ends in a fraction of a second, while the encoder still loads: the process must
    # wait for the load rather than tear down around it (sentencepiece's loader then aborted it, exit status -6).
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for delay in (0.0, 0.1, 0.2, 0.3):
        code = ("import time\nfrom service.gates import detector, encoder\n"
                "from service.usecases.runtime import in_background\n"
                f"in_background(encoder.load, detector.load)\ntime.sleep({delay})\n")
        done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, timeout=120, check=False)
        assert done.returncode == 0, (delay, done.stderr[-500:])
