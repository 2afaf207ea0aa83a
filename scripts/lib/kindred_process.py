"""Starting `kindred serve` from the Python drivers (soak_load.py, fuzz_api.py)."""
import http.client
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
