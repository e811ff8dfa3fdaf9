"""Region of interest max pooling, with regions given with their image
index (Fast R-CNN's layout)."""
import numpy

from kusari.autograd.functions.pooling import _roi


class ROIPooling2D(_roi.ROIGather):
    """The largest element of each rounded bin (corners inclusive), 0 for
    an empty bin, as a node of its own: named as Chainer's, holding
    ``outh``, ``outw`` and ``spatial_scale``, with the regions as its
    second input, so that an exporter (ONNX's MaxRoiPool) sees one ROI
    pooling rather than a data-dependent gather."""

    groups = 1
    empty_value = 0

    def __init__(self, outsize, spatial_scale):
        super().__init__(outsize, spatial_scale)
        self.outh, self.outw = outsize

    def terms(self, x_shape, rois):
        return _roi.rounded_bin_terms(
            x_shape, rois[:, [2, 1, 4, 3]], rois[:, 0].astype(numpy.intp),
            self.outsize, self.spatial_scale, extra=1)


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
    _roi.check_rois_with_index(func_name, x, rois)
    outsize = _roi.outsize_pair(func_name, (outh, outw))
    scale = _roi.check_scale(func_name, spatial_scale)
    return ROIPooling2D(outsize, scale).apply((x, rois))[0]
