"""The stage's client for the services around it: a generator submits an answer and awaits its
decision (`GateClient.submit`), delivery iterates the answers it may show
(`GateClient.releases`). Request/reply over the stage's own topics, no extra infrastructure."""

from stream.client.gate import Decision, GateClient
from stream.client.releases import Release

__all__ = ["Decision", "GateClient", "Release"]
