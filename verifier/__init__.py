"""fairdeal-verify: replays a fairdeal game record and checks every deal and score."""
