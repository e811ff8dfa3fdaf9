"""The names of Chainer's memory layouts (experimental in Chainer v7).

Chainer can keep arrays in cuDNN's channel-last layouts (NHWC) under
``compute_mode='cudnn_fast'``. Kusari does not use cuDNN: its arrays are
always in the standard layout (NCHW for images, ``(out, in, kh, kw)`` for
filters), and ``Variable`` takes no ``layout``. The layout names are
here for code that names them; ``None`` is the standard layout.
"""

CUDNN_CHANNEL_FIRST_X = None
"""The standard layout of an image batch, ``(N, C, H, W)``."""

CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
"""cuDNN's channel-last layout of an image batch, ``(N, H, W, C)``."""

CUDNN_CHANNEL_FIRST_W = None
"""The standard layout of a filter, ``(out, in, kh, kw)``."""

CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'
"""cuDNN's channel-last layout of a filter, ``(out, kh, kw, in)``."""
