"""The API's routers, one per resource."""

from fairdeal.service.routes import events, games, log, meta, moves, rules, seats, sessions

ROUTERS = [
    meta.router,
    rules.router,
    games.router,
    seats.router,
    moves.router,
    events.router,
    sessions.router,
    log.router,
]

__all__ = ["ROUTERS"]
