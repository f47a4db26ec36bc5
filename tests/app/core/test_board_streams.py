"""The organiser's board streams cost one read of the board a change, however many are open (app.core.watch;
the hostile pass of session 17: each stream read the whole board and its feeds at every wake-up, 200 tables 0.4 s
of CPU a frame, and any number of them could be open), and an event has at most `watch.MAX_STREAMS` open."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.core import live, watch
from app.errors import TooManyRequests
from tests.app.core.test_live_audiences import connected, run_alone
from tests.app.events.test_event_day import new_event

EVENT, GAME = 7, 70


def test_the_streams_of_one_event_read_its_board_once_a_change_and_once_to_open() -> None:
    """The first stream's first frame one read: the feeds its read names asked first and followed before it (the
    read, then again once they were heard, was two reads of a 400-table board as the organiser's page opened)."""
    broker = live.InProcessBroker()
    boards = watch.Boards()
    reads: list[int] = []

    def read() -> watch.Read[int]:  # the board (its read's count) and what wakes it: the event, its one game
        reads.append(len(reads) + 1)
        return watch.Read([watch.event_channel(EVENT), GAME], len(reads))

    async def main() -> None:
        streams = []
        for _ in range(watch.MAX_STREAMS):
            shared, leave = boards.admit(EVENT, read)
            streams.append(
                watch.watch(
                    broker,
                    watch.event_channel(EVENT),
                    shared,
                    None,
                    lambda b: [str(b)],
                    connected,
                    leave,
                    feeds=lambda: [watch.event_channel(EVENT), GAME],
                )  # type: ignore[arg-type]
            )
        for stream in streams:
            assert await anext(stream) == b"retry: 1000\n\n"
            assert b"event: board" in await anext(stream)
        assert len(reads) == 1  # the first stream's one read serves every stream's first frame
        broker.publish(GAME)  # a move at the table
        after = [await anext(stream) for stream in streams]
        assert len(reads) == 2 and all(b"data: 2" in frame for frame in after)
        assert boards.streams(EVENT) == watch.MAX_STREAMS
        for stream in streams:
            await stream.aclose()
        assert boards.streams(EVENT) == 0

    run_alone(main)
    assert len(reads) == 2


def test_an_event_has_at_most_its_streams_open_and_the_refusal_names_the_limit(
    sqlite_client: TestClient,
) -> None:
    boards = watch.Boards(per_event=2)
    leaves = [boards.admit(EVENT, lambda: watch.Read([], 0))[1] for _ in range(2)]
    try:
        boards.admit(EVENT, lambda: watch.Read([], 0))
        raise AssertionError("a third stream was let in")
    except TooManyRequests as refused:
        said = str(refused.message)
    assert (
        said
        == "this event already has 2 board streams open, the limit per event: close one or try again in 15 s"
    )
    leaves[0]()
    leaves[0]()  # a stream leaves once, however often it says so
    assert boards.streams(EVENT) == 1 and boards.admit(EVENT, lambda: watch.Read([], 0))

    event_id, organiser = new_event(sqlite_client, rounds=1)
    sqlite_client.app.state.boards = watch.Boards(per_event=0)  # type: ignore[attr-defined]
    full = sqlite_client.get(f"/api/v1/events/{event_id}/stream", headers=organiser)
    assert full.status_code == 429 and full.headers["Retry-After"] == "15"
    assert "board streams open, the limit per event" in full.json()["detail"]


def test_a_piece_every_stream_of_an_event_sends_is_built_once_a_version() -> None:
    """The hostile pass of session 19: each of 8 streams built the event's standings on every settle (0.7 s of
    CPU at 200 tables); `Shared.kept` builds a piece once per key for every stream of the event."""
    shared = watch.Shared(lambda: watch.Read([], 0))
    built: list[int] = []

    def make() -> str:
        built.append(1)
        return f"standings {len(built)}"

    assert [shared.kept(1, make) for _ in range(watch.MAX_STREAMS)] == ["standings 1"] * watch.MAX_STREAMS
    assert [shared.kept(2, make) for _ in range(2)] == ["standings 2"] * 2 and len(built) == 2
