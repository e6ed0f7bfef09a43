"""LLVM-level compile experiments on navmesh's kernels, applied in every Python process started with
this folder on ``PYTHONPATH`` (a measuring tool, not part of the library).

``NAVMESH_LLVM_EXP`` is a comma list of:

- ``tm2`` / ``tm1`` / ``tm0``: the target machine's (machine code emission's) optimisation level;
- ``nofpm``: modules defining a navmesh function (``_ZN7navmesh`` / ``_ZN7cpython7navmesh``) skip
  numba's per-function O3 simplification pipeline (``CPUCodeLibrary._optimize_functions``);
- ``fpm1`` / ``fpm2``: that pipeline at O1 / O2 for navmesh's modules;
- ``fpmlite``: navmesh's modules get only SROA, CFG simplification and reference-count pruning
  per function;
- ``cheap0``: navmesh's libraries run numba's "cheap" module pass at O0 without its added loop
  rotation, instruction combining and jump threading;
- ``nofpmall``: every module skips the per-function pipeline.
- ``mpm2`` / ``mpm1``: navmesh's libraries run numba's full module pipeline at O2 / O1;
- ``mpmnovec``: navmesh's libraries run it without the loop vectorizer;
- ``linkonly``: navmesh's internal kernels get no machine code of their own (``link_only.py`` here).

numba's own settings (``NUMBA_OPT``, ``NUMBA_LOOP_VECTORIZE`` ...) are set as plain environment
variables. Example, from the project root (a fresh cache each run)::

    PYTHONPATH=tools/llvm_experiments NAVMESH_LLVM_EXP=nofpm,cheap0 NUMBA_CACHE_DIR=$(mktemp -d) \
        python3 tools/compile_phases.py --json

The experiments replace numba's methods before navmesh is imported, so they also apply in the
benchmarks' helper processes.
"""
import os
_exp = [e for e in os.environ.get("NAVMESH_LLVM_EXP", "").split(",") if e]
if _exp:
    import llvmlite.binding as ll
    from numba.core import codegen as cg
    for e in _exp:
        if e.startswith("tm"):  # tm2 / tm1 / tm0: target machine (codegen) opt level
            level = int(e[2:])
            orig = ll.Target.create_target_machine
            import functools
            @functools.wraps(orig)
            def create_target_machine(self, *a, _orig=orig, _level=level, **kw):
                kw["opt"] = _level
                return _orig(self, *a, **kw)
            ll.Target.create_target_machine = create_target_machine
        elif e == "nofpm":  # skip per-function passes of navmesh modules
            orig_of = cg.CPUCodeLibrary._optimize_functions
            def _optimize_functions(self, ll_module, _orig=orig_of):
                if any(f.name.startswith(("_ZN7navmesh", "_ZN7cpython7navmesh")) for f in ll_module.functions if not f.is_declaration):
                    ll_module.data_layout = self._codegen._data_layout
                    return
                return _orig(self, ll_module)
            cg.CPUCodeLibrary._optimize_functions = _optimize_functions
        elif e.startswith("fpm") and e[3:].isdigit():  # per-function passes of navmesh modules at this level
            level = int(e[3:])
            orig_of = cg.CPUCodeLibrary._optimize_functions
            def _optimize_functions(self, ll_module, _orig=orig_of, _level=level):
                if any(f.name.startswith(("_ZN7navmesh", "_ZN7cpython7navmesh")) for f in ll_module.functions if not f.is_declaration):
                    ll_module.data_layout = self._codegen._data_layout
                    for func in ll_module.functions:
                        fpm, pb = self._codegen._function_pass_manager(opt=_level)
                        fpm.run(func, pb)
                    return
                return _orig(self, ll_module)
            cg.CPUCodeLibrary._optimize_functions = _optimize_functions
        elif e == "fpmlite":  # navmesh modules: sroa + simplifycfg + refprune only
            import llvmlite.binding as llb
            from numba.core.codegen import _parse_refprune_flags
            orig_of = cg.CPUCodeLibrary._optimize_functions
            def _optimize_functions(self, ll_module, _orig=orig_of):
                if any(f.name.startswith(("_ZN7navmesh", "_ZN7cpython7navmesh")) for f in ll_module.functions if not f.is_declaration):
                    ll_module.data_layout = self._codegen._data_layout
                    pb = self._codegen._pass_builder()
                    fpm = llb.create_new_function_pass_manager()
                    fpm.add_sroa_pass(); fpm.add_simplify_cfg_pass(); fpm.add_refprune_pass(_parse_refprune_flags())
                    for func in ll_module.functions:
                        if not func.is_declaration:
                            fpm.run(func, pb)
                    return
                return _orig(self, ll_module)
            cg.CPUCodeLibrary._optimize_functions = _optimize_functions
        elif e == "cheap0":  # navmesh libraries: cheap module pass without loop-rotate/instcombine/jump-threading
            from numba.core import config as ncfg
            orig_final = cg.CPUCodeLibrary._optimize_final_module
            orig_add = cg.CPUCodeLibrary.add_llvm_module
            def add_llvm_module(self, ll_module, _orig=orig_add):
                if any(f.name.startswith(("_ZN7navmesh", "_ZN7cpython7navmesh")) for f in ll_module.functions if not f.is_declaration):
                    self._nm = True
                return _orig(self, ll_module)
            def _optimize_final_module(self, _orig=orig_final):
                if not getattr(self, "_nm", False):
                    return _orig(self)
                pb = self._codegen._pass_builder(loop_vectorize=False, slp_vectorize=False, opt=0)
                pm = pb.getModulePassManager()
                from numba.core.codegen import _parse_refprune_flags
                pm.add_refprune_pass(_parse_refprune_flags())
                pm.run(self._final_module, pb)
                mpm_full, mpb_full = self._codegen._module_pass_manager()
                mpm_full.run(self._final_module, mpb_full)
            cg.CPUCodeLibrary.add_llvm_module = add_llvm_module
            cg.CPUCodeLibrary._optimize_final_module = _optimize_final_module
        elif e in ("mpm2", "mpm1", "mpmnovec"):  # navmesh libraries: full module pipeline at O2/O1 or without vectorizing
            from numba.core import config as ncfg
            kwargs = {"mpm2": {"opt": 2}, "mpm1": {"opt": 1}, "mpmnovec": {"loop_vectorize": False}}[e]
            orig_final = cg.CPUCodeLibrary._optimize_final_module
            def _optimize_final_module(self, _orig=orig_final, _kw=kwargs):
                if not any(f.name.startswith("_ZN7navmesh") for f in self._final_module.functions if not f.is_declaration):
                    return _orig(self)
                mpm_cheap, mpb_cheap = self._codegen._module_pass_manager(loop_vectorize=self._codegen._loopvect, slp_vectorize=False,
                                                                         opt=self._codegen._opt_level, cost="cheap")
                mpm_cheap.run(self._final_module, mpb_cheap)
                mpm_full, mpb_full = self._codegen._module_pass_manager(**_kw)
                mpm_full.run(self._final_module, mpb_full)
            cg.CPUCodeLibrary._optimize_final_module = _optimize_final_module
        elif e == "linkonly":
            import link_only
            link_only.install()
        elif e == "nofpmall":
            def _optimize_functions(self, ll_module):
                ll_module.data_layout = self._codegen._data_layout
            cg.CPUCodeLibrary._optimize_functions = _optimize_functions
        else:
            raise SystemExit(f"unknown NAVMESH_LLVM_EXP {e}")
