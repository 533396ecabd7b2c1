"""tuner: tune the guideline files that teach LLMs to write code for a product, with evidence."""

import os

# One BLAS thread unless the user says otherwise (before numpy loads OpenBLAS). Every matrix the
# statistics fit is small (the engine's largest, tune's screening, about 1,300 x 100), where OpenBLAS's
# threads cost more than they save: an SVD of that size took 0.026 s with its threads and 0.006 s
# without on this 2-core machine, and under load (two test workers, other sessions) a screening
# design took 1.8 s with them and 0.6 s without.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
__all__ = ["__version__"]
