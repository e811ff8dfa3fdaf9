"""Region of interest max align."""
import numpy

from kusari.autograd.functions.pooling import _roi


class ROIMaxAlign2D(_roi.ROIGather):
    """The largest bilinear sample (four corner terms) of each bin."""

    groups = 4
    empty_value = -numpy.inf

    def terms(self, x_shape, rois, roi_indices):
        index, weight, _ = _roi.bilinear_terms(
            x_shape, rois, roi_indices, self.outsize, self.spatial_scale,
            self.sampling_ratio)
        return index, weight


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                     sampling_ratio=None):
    """Spatial region of interest (ROI) max align.

    As :func:`roi_average_align_2d`, but each output is the largest of
    the bilinear samples of its bin that lie in the image (``-inf`` if
    none does).
    """
    args = _roi.align_args('roi_max_align_2d', x, rois, roi_indices,
                           outsize, spatial_scale, sampling_ratio)
    return ROIMaxAlign2D(*args).apply((x, rois, roi_indices))[0]
