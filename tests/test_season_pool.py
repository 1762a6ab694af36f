"""The season's local pool: guided chunks, every item answered once by a worker, a dead worker's items
failed, the workers' CPU clocks."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

from daishi_forensics.batch.pool import PoolCpu, chunk_size, map_chunks, start_pool


def _square(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _die_on_7(n: int) -> tuple[int, int]:
    if n == 7:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n, os.getpid()


def test_chunks_shrink_to_one_item_at_the_end() -> None:
    # 2 workers, ceil(left / 8) capped at 4: 44 chunks of 4 (200 -> 24), 3 of 3 (-> 15), 4 of 2 (-> 7), 7 of 1
    sizes = []
    left = 200
    while left:
        sizes.append(chunk_size(left, 2))
        left -= sizes[-1]
    assert sizes == [4] * 44 + [3] * 3 + [2] * 4 + [1] * 7  # 58 round trips for 200 items


def test_every_item_is_answered_once_by_a_worker() -> None:
    pool = start_pool(2, ["json"])
    cpu = PoolCpu()
    try:
        answers = list(map_chunks(pool, 2, _square, list(range(40)), cpu))
    finally:
        pool.shutdown(wait=True)
    assert sorted(item for item, _ in answers) == list(range(40))
    assert all(answer[0] == item * item for item, answer in answers)  # type: ignore[index]
    workers = {answer[1] for _, answer in answers}  # type: ignore[index]
    assert os.getpid() not in workers and set(cpu.by_worker) == workers and 1 <= len(workers) <= 2
    assert cpu.seconds > 0


def test_a_dead_worker_fails_its_chunk_and_what_was_left() -> None:
    pool = start_pool(2, ["json"])
    try:
        answers = dict(map_chunks(pool, 2, _die_on_7, list(range(20)), PoolCpu()))
    finally:
        pool.shutdown(wait=True)
    assert sorted(answers) == list(range(20))  # nothing dropped
    assert isinstance(answers[7], BrokenProcessPool)
    done = [n for n, a in answers.items() if not isinstance(a, BaseException)]
    assert all(answers[n][0] == n * n for n in done)  # type: ignore[index]
    assert all(isinstance(answers[n], BrokenProcessPool) for n in range(20) if n not in done)
