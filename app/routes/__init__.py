"""One JSON router per resource. main.py includes every router listed here (the pages are app.pages).

A route answers JSON only, with a typed model (app.data.schemas_answers), and imports no other route (an
import contract): shared models are in app.data. Each module makes its router with app.core.routing's
`Router`, which refuses a path outside its prefix with one string test. A route owns its transaction: every
write is one unit of work of app.services.writing (`game_write`: lock the game, act through the services,
commit). Resolve endpoints are `async` (pure CPU work, run in the event loop rather than handed to the
threadpool and back); `bench/resolve_throughput.py --profile` shows where a request's time goes."""

from app.core.routing import Router
from app.routes import (
    arrivals,
    campaign_battles,
    campaign_games,
    campaigns,
    clock,
    event_board,
    events,
    fireplans,
    forces,
    games,
    health,
    league,
    playsheets,
    rulesets,
    scenarios,
    score,
    sides,
    templates,
    tournaments,
)


def api_routers() -> list[Router]:
    return [
        health.router,
        *rulesets.build_routers(),
        games.router,
        games.join_router,
        forces.router,
        fireplans.router,
        arrivals.router,  # arrived fire-plan fire as cards (issue 26)
        events.router,
        campaigns.router,
        campaign_games.router,  # the campaign persisted like a game (issue 9)
        campaign_battles.router,  # campaign battles fought on the table (issue 17)
        campaign_battles.game_router,
        playsheets.router,
        templates.router,  # templates on the shared table (issue 14)
        scenarios.router,  # scenario files (issue 27)
        clock.router,  # the game clock (issue 55)
        tournaments.router,  # a club event day (issue 57)
        event_board.router,  # its organiser's board, live
        league.router,  # the league of clubs' signed results (issue 63)
        score.router,  # how a game is won (issue 55)
        sides.router,  # whose dice each side's rolls are (issue 69)
    ]
