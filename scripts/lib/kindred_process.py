"""Starting `kindred serve` and calling it from the Python drivers (soak_load.py, fuzz_api.py,
fuzz_api_hooks.py)."""
import http.client
import json
import subprocess
import time


def start_serve(binary, arguments, environment, log, error=RuntimeError, timeout=60):
    """Starts `binary serve ARGUMENTS` with stderr to the open file `log` and waits until
    `GET /ready` answers 200 on `--port`; raises `error` when it exits or is not ready in time.
    Returns the process."""
    port = int(arguments[arguments.index("--port") + 1])
    process = subprocess.Popen(
        [binary, "serve", *arguments],
        env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise error(f"kindred serve exited with {process.returncode}; see {log.name}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/ready")
            if conn.getresponse().status == 200:
                return process
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise error(f"kindred serve was not ready within {timeout} s; see {log.name}")
        time.sleep(0.1)


def call_json(host, port, method, path, token=None, app=None, body=None, timeout=30):
    """One request on a fresh connection, `body` sent as JSON: the status and the raw reply."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    headers = {}
    if app:
        headers["X-Kindred-App"] = app
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()
