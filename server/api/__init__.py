"""The HTTP face of the runtime: REST routes under ``/api``, the WebSocket under ``/ws``,
health and metrics. Routes translate; the runtime decides."""
