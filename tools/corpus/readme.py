"""tests/corpus/README.md, written by gen_corpus.py from the case list."""

INTRO = """# The kernel corpus

Real CUDA C++ kernels, compiled to PTX by NVIDIA's NVRTC 12.9, with launch manifests
(issue 4, section 2) and expected results computed by CPU references. Each folder
`<case>/` holds:

| file | what |
|---|---|
| `kernel.cu` | the CUDA source |
| `kernel.ptx` | NVRTC 12.9, `--gpu-architecture=compute_75` (the manifest's default variant) |
| `kernel.sm52.ptx` | NVRTC 12.9, `--gpu-architecture=compute_52` |
| `case.json` | the launch manifest: kernel, grid, block, dynamic shared bytes, parameters, expectations |
| `<buffer>.bin` | input buffers, little-endian packed |
| `expected_<buffer>.bin` | expected contents of output buffers after the launch |

All files are generated: do not edit them by hand. `case.json` also carries two fields
the runner ignores: `description`, and `nvrtc_options` where the PTX was compiled with
extra options.

## Regenerating

```sh
pip install nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86
python3 tools/gen_corpus.py            # every case (about 30 s); or name cases to rebuild
python3 tools/gen_corpus.py --list     # the cases and what they cover
python3 tools/corpus/host_check.py     # independent check of every expectation (g++, ~2 min)
```

The generator (`tools/gen_corpus.py`, cases in `tools/corpus/cases_*.py`) is
deterministic: fixed seeds (splitmix64), no timestamps; two runs give identical files.
It validates every PTX file with `ptxas -arch=sm_75` / `sm_52` (from
nvidia-cuda-nvcc-cu12). The tests need neither NVRTC nor Python: everything is committed.

## How the expected outputs are computed, and checked

- The references are Python, in the case builders. Floating point goes through
  `tools/corpus/fp.py`: exact rational arithmetic rounded once to binary16/32/64 in any
  of the four IEEE modes, subnormals kept (PTX without `.ftz` on sm_20+).
- `tools/corpus/host_check.py` compiles each `kernel.cu` for the host with
  `tools/corpus/hostsim.h` (every CUDA thread a coroutine; barriers, shuffles and votes
  as rendezvous; directed rounding through the host FPU's rounding modes; F16C for
  half conversions) and compares its results with the expected files. Every case
  agrees except the two that need SFU approximations (`fast_math_*`), which it skips,
  and NaN bit patterns, which the host FPU does not canonicalize.
- No GPU was used. Where the GPU's behaviour is not pinned down by IEEE-754 the
  corpus relies on these PTX rules (sm_20+):
  - a NaN produced by f32 `add/sub/mul/fma/min/max` is the canonical NaN `0x7fffffff`
    (`float_ieee_arith`); NaN results of `div`/`sqrt` and of `abs/neg/copysign` on NaN
    are not checked, nor `min/max` of `+0` and `-0`;
  - float-to-integer `cvt` rounds as asked, then saturates to the destination range;
    NaN converts to 0 (checked for 32-bit destinations only);
  - `cvt.sat.f32.f32` (`__saturatef`) gives +0.0 for NaN (`-0.0` is not checked);
  - a `__shfl_*_sync` whose source lane is outside the warp returns the caller's value.
- Exact expectations that go through approximate instructions inside NVIDIA's own
  library sequences, and so need an SFU at least as accurate as NVIDIA's:
  `ldexpf` (multiplies by `ex2.approx.ftz.f32` of an integer, which must be exact),
  `fmodf` (quotient estimate from `div.approx.f32` / `rcp.approx.ftz.f32`, then
  corrected), `__frsqrt_rn` (`rsqrt.approx.ftz.f32` then a Newton step and rounding
  fix-up).
- Tolerances appear only where CUDA itself is approximate: library functions
  (`libm_f32`, `libm_f64`: CUDA's documented maximum ulp error + 1 for the rounding of
  the reference) and SFU intrinsics or `--use_fast_math` (`fast_math_*`: the documented
  absolute or ulp bounds). Every other expectation is bit-exact.

## What the corpus covers (issue 4, section 3)

| topic | cases |
|---|---|
| element-wise maps | `vec_add_f32`, `saxpy_restrict_fma`, `small_int_types`, `vector_types`, `templated_kernels` |
| grid-stride loops | `grid_stride_loop`, `histogram_global_atomics`, `reduce_last_block` |
| 2D/3D grids and blocks | `map_2d_grid`, `ids_3d`, `transpose_tiled`, `matmul_tiled_f32`, `stencil_2d_shared` |
| partial warps | `ids_3d`, `warp_vote_partial`, `warp_shuffle_partial`, `barrier_reductions` |
| shared-memory tiling | `transpose_tiled`, `matmul_tiled_f32`, `stencil_2d_shared`, `conv1d_constant_mem` |
| reductions and scans with barriers | `reduce_tree`, `reduce_last_block`, `barrier_reductions`, `scan_hillis_steele`, `scan_blelloch`, `bitonic_sort_shared` |
| warp shuffles and votes under partial masks | `warp_shuffle_reduce`, `warp_vote_partial`, `warp_shuffle_partial`, `warp_sync_shared` |
| atomics (global, shared, CAS loops, 64-bit) | `atomics_global_32`, `atomic_cas_loops`, `atomics_64bit`, `atomics_shared`, `histogram_global_atomics`, `reduce_last_block` |
| nested divergence | `nested_divergence` |
| loops with per-thread trip counts | `per_thread_loops` |
| switch statements | `switch_statements` |
| device calls | `device_calls`, `indirect_calls`, `struct_by_value` |
| recursion | `recursion` |
| dynamically indexed local arrays | `local_arrays`, `recursion` |
| structs by value | `struct_by_value` |
| constant memory | `conv1d_constant_mem` |
| dynamic shared memory | `dynamic_shared_mem` |
| 64-bit integer math | `int64_math` |
| division and remainder | `divrem_32`, `divrem_64` |
| bit manipulation | `bit_manipulation`, `int_intrinsics` |
| IEEE and fast float math | `float_ieee_arith`, `float_round_compare`, `libm_f32`, `fast_math_intrinsics`, `fast_math_flag` |
| directed rounding | `directed_rounding_f32`, `double_arith`, `convert_*`, `half_precision` |
| double precision | `double_arith`, `libm_f64` |
| conversions, every rounding mode, saturation | `convert_float_to_int`, `convert_int_to_float`, `half_precision` |
| half-precision storage | `half_precision` |
| printf from many threads | `printf_many_threads`, `printf_formats` |
| malloc/free | `malloc_free` |
| assert that passes / fires | `assert_passes`, `assert_fires` |

## The cases

| case | grid / block | covers |
|---|---|---|
"""


def render(cases):
    rows = []
    for c in cases:
        g = "×".join(str(v) for v in c.grid)
        b = "×".join(str(v) for v in c.block)
        extra = []
        if c.dynamic_shared_bytes:
            extra.append(f"{c.dynamic_shared_bytes} B dynamic shared memory")
        if c.expect_stdout is not None:
            extra.append("stdout" + (", unordered lines" if c.unordered else ""))
        if c.expect_trap:
            extra.append("expects a trap")
        if any("tolerance" in e for e in c.expects.values()):
            extra.append("tolerances")
        if c.nvrtc_opts:
            extra.append("NVRTC " + " ".join(f"`{o}`" for o in c.nvrtc_opts))
        desc = c.description.replace("|", "\\|")
        rows.append(f"| `{c.name}` | {g} / {b} | {desc}{' (' + '; '.join(extra) + ')' if extra else ''} |")
    return INTRO + "\n".join(rows) + f"\n\n{len(cases)} cases.\n"
