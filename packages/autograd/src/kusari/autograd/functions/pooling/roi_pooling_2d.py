"""Region of interest max pooling, with regions given with their image
index (Fast R-CNN's layout)."""
import functools

from kusari.autograd.functions.pooling import _roi
from kusari.autograd.functions.pooling import _scatter_gather


class ROIPooling2D(_scatter_gather.Gather):
    """The gather of each bin's largest element, as a node of its own:
    named as Chainer's, holding ``outh``, ``outw`` and ``spatial_scale``,
    with the regions as its second input, so that an exporter (ONNX's
    MaxRoiPool) sees one ROI pooling rather than a data-dependent
    gather."""

    def __init__(self, outsize, spatial_scale, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outh, self.outw = outsize
        self.spatial_scale = spatial_scale

    def forward(self, inputs):
        return super().forward(inputs[:1])

    def backward(self, indexes, grad_outputs):
        return super().backward(indexes, grad_outputs) + (None,)


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Spatial region of interest (ROI) max pooling.

    Each region, scaled by ``spatial_scale`` and rounded to pixels (its
    corners inclusive), is split into ``outh x outw`` bins; each output is
    the maximum of x over its bin, 0 for an empty bin.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        rois: array ``(R, 5)`` of ``(image index, x_min, y_min, x_max,
            y_max)``.
        outh, outw (int): The bins per region along height and width.
        spatial_scale (float): Scale of the ROI coordinates onto x.

    Returns:
        Variable ``(R, c, outh, outw)``.
    """
    func_name = 'roi_pooling_2d'
    boxes, batch = _roi.check_rois_with_index(func_name, x, rois)
    outsize = _roi.outsize_pair(func_name, (outh, outw))
    scale = _roi.check_scale(func_name, spatial_scale)
    index, weight = _roi.rounded_bin_terms(x.shape, boxes, batch, outsize,
                                           scale, extra=1)
    gather = functools.partial(ROIPooling2D, outsize, scale)
    return _roi.apply_max(x, index, weight, 1, 0, gather, (rois,))
