# Suite configuration of test/lit/passes: runs the shared test/lit/lit.cfg.py
# after initializing lit.llvm, which the shared file uses (llvm_config,
# use_default_substitutions needs config.llvm_tools_dir) but does not set up
# itself when lit is started on a suite folder without a lit.site.cfg.py.
# Harmless once the shared file initializes lit.llvm on its own.
import os

import lit.llvm

lit.llvm.initialize(lit_config, config)
config.llvm_tools_dir = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")

_here = os.path.dirname(os.path.abspath(__file__))
_shared = os.path.join(os.path.dirname(_here), "lit.cfg.py")
with open(_shared) as _f:
    exec(compile(_f.read(), _shared, "exec"), dict(globals(), __file__=_shared))

# This folder is the suite: discover only its tests, keep outputs apart.
config.test_source_root = _here
config.test_exec_root = os.path.join(config.alea_build, "test", "lit", "passes")
