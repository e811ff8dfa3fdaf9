"""Region of interest max pooling."""
import numpy

from kusari.autograd.functions.pooling import _roi


class ROIMaxPooling2D(_roi.ROIGather):
    """The largest element of each rounded bin."""

    groups = 1
    empty_value = -numpy.inf

    def terms(self, x_shape, rois, roi_indices):
        return _roi.rounded_bin_terms(x_shape, rois, roi_indices,
                                      self.outsize, self.spatial_scale)


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial region of interest (ROI) max pooling.

    Each region, scaled by ``spatial_scale`` and rounded to pixels, is
    split into ``outsize`` bins; each output is the maximum of x over its
    bin, ``-inf`` for an empty bin; the arguments and the result are those
    of :func:`~chainer.functions.roi_average_pooling_2d`.
    """
    args = _roi.pooling_args('roi_max_pooling_2d', x, rois, roi_indices,
                             outsize, spatial_scale)
    return ROIMaxPooling2D(*args).apply((x, rois, roi_indices))[0]
