"""The transport floor: a bare aiokafka loop moving the worker's output volume.

Per consumed answer it produces `claims` verdict-sized records and one decision-sized record
(keyed like the worker's), plus one small mark (the duplicate index's record), awaits every
acknowledgement, then commits — what the worker must do at the least, minus verification.
Same client settings as the worker (`stream.kafka.clients`), so the ratio isolates our code.

`python -m stream.worker.bench.bare BOOTSTRAP GROUP INPUT PREFIX CLAIMS VBYTES DBYTES`
runs until SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from stream.kafka.clients import consumer_kwargs, producer_kwargs
from stream.settings import Settings


async def run(
    bootstrap: str,
    group: str,
    topic: str,
    prefix: str,
    claims: int,
    verdict_bytes: int,
    decision_bytes: int,
) -> None:
    settings = Settings.from_env(group_id=group)
    producer = AIOKafkaProducer(**producer_kwargs(settings, [bootstrap]))
    consumer = AIOKafkaConsumer(topic, **consumer_kwargs(settings, [bootstrap]))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await producer.start()
    await consumer.start()
    verdict = b"v" * verdict_bytes
    decision = b"d" * decision_bytes
    mark = b"m" * 48
    verdicts, decisions, marks = f"{prefix}.verdicts", f"{prefix}.decisions", f"{prefix}.marks"
    try:
        while not stop.is_set():
            batches = await consumer.getmany(timeout_ms=200, max_records=500)
            if not batches:
                continue
            futures = []
            for records in batches.values():
                for r in records:
                    for _ in range(claims):
                        futures.append(await producer.send(verdicts, key=r.key, value=verdict))
                    futures.append(await producer.send(decisions, key=r.key, value=decision))
                    futures.append(await producer.send(marks, key=r.key, value=mark))
            await asyncio.gather(*futures)
            await consumer.commit({tp: recs[-1].offset + 1 for tp, recs in batches.items()})
    finally:
        with contextlib.suppress(Exception):
            await consumer.stop()
        with contextlib.suppress(Exception):
            await producer.stop()


def main(argv: list[str]) -> int:
    bootstrap, group, topic, prefix, claims, vbytes, dbytes = argv
    asyncio.run(run(bootstrap, group, topic, prefix, int(claims), int(vbytes), int(dbytes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
