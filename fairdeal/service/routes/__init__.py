"""The API's routers, one per resource."""

from fairdeal.service.routes import events
from fairdeal.service.routes import games
from fairdeal.service.routes import log
from fairdeal.service.routes import meta
from fairdeal.service.routes import moves
from fairdeal.service.routes import rules
from fairdeal.service.routes import seats
from fairdeal.service.routes import sessions

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
