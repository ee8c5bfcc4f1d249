"""The case model of the corpus generator: a case is a CUDA source, a launch, its
parameters (scalars, buffers, by-value structs) and its expectations, written out
as tests/corpus/<name>/ in the launch-manifest format of issue 4."""
import json
import struct

from . import fp

# dtype -> (struct code, size). Floating dtypes hold bit patterns.
DTYPES = {
    "u8": ("B", 1), "s8": ("b", 1), "u16": ("H", 2), "s16": ("h", 2),
    "u32": ("I", 4), "s32": ("i", 4), "u64": ("Q", 8), "s64": ("q", 8),
    "f16": ("H", 2), "f32": ("I", 4), "f64": ("Q", 8),
}

INT_RANGE = {
    "u8": (0, 0xFF), "s8": (-0x80, 0x7F), "u16": (0, 0xFFFF), "s16": (-0x8000, 0x7FFF),
    "u32": (0, 0xFFFFFFFF), "s32": (-0x80000000, 0x7FFFFFFF),
    "u64": (0, 0xFFFFFFFFFFFFFFFF), "s64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF),
    "f16": (0, 0xFFFF), "f32": (0, 0xFFFFFFFF), "f64": (0, 0xFFFFFFFFFFFFFFFF),
}


def pack(dtype, values):
    code, _ = DTYPES[dtype]
    lo, hi = INT_RANGE[dtype]
    for v in values:
        if not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{dtype} value out of range: {v!r}")
    return struct.pack("<%d%s" % (len(values), code), *values)


def wrap(v, dtype):
    """Wrap a Python int to the dtype's two's-complement range."""
    _, size = DTYPES[dtype]
    bits = size * 8
    v &= (1 << bits) - 1
    if dtype.startswith("s") and v >> (bits - 1):
        v -= 1 << bits
    return v


class Rng:
    """splitmix64: the same stream on every Python version."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def u64(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def u32(self):
        return self.u64() >> 32

    def below(self, n):
        return self.u64() % n

    def range(self, lo, hi):
        """Integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def s32(self):
        return wrap(self.u32(), "s32")

    def s64(self):
        return wrap(self.u64(), "s64")

    def f32_unit(self, lo=-1.0, hi=1.0):
        """A binary32 (bits) uniformly drawn from [lo, hi) with 24 random bits."""
        from fractions import Fraction
        t = Fraction(self.u32() >> 8, 1 << 24)
        return fp.round_frac(Fraction(lo) + (Fraction(hi) - Fraction(lo)) * t, fp.F32)

    def f64_unit(self, lo=-1.0, hi=1.0):
        from fractions import Fraction
        t = Fraction(self.u64() >> 11, 1 << 53)
        return fp.round_frac(Fraction(lo) + (Fraction(hi) - Fraction(lo)) * t, fp.F64)

    def f32_any(self):
        """Random finite binary32 bits over a wide exponent range (incl. subnormals)."""
        while True:
            b = self.u32()
            if not (fp.is_nan(b) or fp.is_inf(b)):
                return b

    def f32_exp_range(self, emin, emax):
        """Random binary32 with unbiased exponent in [emin, emax], random sign."""
        e = self.range(emin, emax)
        m = self.u32() & 0x7FFFFF
        s = (self.u32() & 1) << 31
        return s | ((e + 127) << 23) | m

    def f64_exp_range(self, emin, emax):
        e = self.range(emin, emax)
        m = self.u64() & ((1 << 52) - 1)
        s = (self.u32() & 1) << 63
        return s | ((e + 1023) << 52) | m


class Case:
    def __init__(self, name, description):
        self.name = name
        self.description = description
        self.source = None
        self.kernel = None
        self.grid = (1, 1, 1)
        self.block = (1, 1, 1)
        self.dynamic_shared_bytes = 0
        self.params = []
        self.files = {}
        self.expects = {}
        self.expect_stdout = None
        self.unordered = False
        self.expect_trap = False
        self.nvrtc_opts = []
        self.covers = []

    # ---- parameters, in .entry order ---------------------------------------------

    def scalar(self, typ, value):
        assert typ in ("u32", "s32", "u64", "s64", "f32", "f64")
        if typ in ("f32", "f64"):
            # value: bit pattern; written as a JSON number that parses to it exactly
            f = fp.F32 if typ == "f32" else fp.F64
            assert not (fp.is_nan(value, f) or fp.is_inf(value, f))
            num = fp.to_float(value, f)
            self.params.append({"type": typ, "value": num})
        else:
            lo, hi = INT_RANGE[typ]
            assert lo <= value <= hi
            self.params.append({"type": typ, "value": value})

    def buffer(self, name, dtype, data=None, count=None, output=False, init=None):
        p = {"type": "buffer", "name": name, "dtype": dtype}
        if data is not None:
            count = len(data) if count is None else count
            assert count == len(data)
            fname = f"{name}.bin"
            self.files[fname] = pack(dtype, list(data))
            p["count"] = count
            p["file"] = fname
        elif init is not None:
            count = len(init) if count is None else count
            pack(dtype, list(init))  # range check
            p["count"] = count
            if dtype in ("f16", "f32", "f64"):
                f = {"f16": fp.F16, "f32": fp.F32, "f64": fp.F64}[dtype]
                p["init"] = [fp.to_float(b, f) for b in init]
            else:
                p["init"] = list(init)
        else:
            assert count is not None
            p["count"] = count
        p["output"] = bool(output)
        self.params.append(p)

    def struct(self, align, data: bytes):
        self.params.append({"type": "struct", "align": align, "size": len(data),
                            "bytes": data.hex()})

    # ---- expectations ---------------------------------------------------------------

    def expect(self, name, dtype, data, tolerance=None):
        fname = f"expected_{name}.bin"
        self.files[fname] = pack(dtype, list(data))
        e = {"file": fname, "dtype": dtype, "count": len(data)}
        if tolerance is not None:
            e["tolerance"] = tolerance
        self.expects[name] = e

    def manifest(self):
        m = {
            "name": self.name,
            "description": self.description,
            "kernel": self.kernel,
            "ptx": {"compute_75": "kernel.ptx", "compute_52": "kernel.sm52.ptx"},
            "grid": list(self.grid),
            "block": list(self.block),
            "dynamic_shared_bytes": self.dynamic_shared_bytes,
            "params": self.params,
            "expect": self.expects,
        }
        if self.expect_stdout is not None:
            m["expect_stdout"] = self.expect_stdout
            m["expect_stdout_unordered_lines"] = self.unordered
        m["expect_trap"] = self.expect_trap
        if self.nvrtc_opts:
            m["nvrtc_options"] = list(self.nvrtc_opts)
        return dump_manifest(m)


def dump_manifest(m):
    """JSON with one line per top-level field, per parameter and per expectation."""
    one = lambda v: json.dumps(v, separators=(", ", ": "))
    out = []
    for k, v in m.items():
        if k == "params":
            body = ",\n".join("  " + one(p) for p in v)
            out.append(f' "params": [\n{body}\n ]')
        elif k == "expect":
            body = ",\n".join(f"  {one(n)}: {one(e)}" for n, e in v.items())
            out.append(f' "expect": {{\n{body}\n }}' if v else ' "expect": {}')
        else:
            out.append(f" {one(k)}: {one(v)}")
    text = "{\n" + ",\n".join(out) + "\n}\n"
    assert json.loads(text) == m
    return text


REGISTRY = []


def case(fn):
    """Register a case builder: fn() -> Case."""
    REGISTRY.append(fn)
    return fn
