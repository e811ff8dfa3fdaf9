#!/bin/bash
# The CUDA checks in one command, for a lent GPU machine whose image has
# CuPy, NumPy, SciPy, pytest, pytest-xdist and Hypothesis but no build
# backend: every package runs from its source. From the repository root:
#   bash conformance/gpu_check.sh       (results and logs under $OUT)
# The distributed tests need the mpich wheel in .whl/ (see README.md).
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-check}; mkdir -p "$OUT"
export PYTHONPATH=$(ls -d $PWD/packages/*/src | paste -sd:)
export PYTHONUNBUFFERED=1
PHASE1=${PHASE1:-200}; PHASE2=${PHASE2:-280}
nvidia-smi -L
python3 -c "import cupy, numpy, sys; print('cupy', cupy.__version__, 'numpy', numpy.__version__, sys.version.split()[0], 'gpus', cupy.cuda.runtime.getDeviceCount())"
python3 -c "from kusari.array import lazy_cupy as c; print('kusari sees cupy:', c.cupy_or_none() is not None, c.unavailable_reason())"
# The mpich wheel (carried in .whl) puts mpiexec beside the interpreter,
# where the distributed tests look for it.
if ls .whl/mpich*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps .whl/mpich*.whl
fi
echo "== phase 1: gpu-marked package tests"
timeout $PHASE1 python3 -m pytest packages -m "gpu or multi_gpu" -q -p no:cacheprovider -n 12 -rfEs \
  --junitxml=$OUT/pkg.xml ${PKG_ARGS} > $OUT/pkg.txt 2>&1
echo "rc=$?"; tail -40 $OUT/pkg.txt
echo "== phase 2: conformance --device=cuda"
timeout $PHASE2 python3 -m pytest conformance --ignore=conformance/differential --device=cuda -q -p no:cacheprovider -n 14 -rfE \
  --junitxml=$OUT/conf.xml ${CONF_ARGS} > $OUT/conf.txt 2>&1
echo "rc=$?"; tail -60 $OUT/conf.txt
