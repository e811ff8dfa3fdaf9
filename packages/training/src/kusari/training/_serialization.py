"""Saving values whose type changes during training."""
from kusari.serializers import serializer as serializer_module


def serialize_value(serializer, key, value):
    """Save ``value`` under ``key`` and return it, or return the stored
    value as it was stored (a 0-d array for a number, None for None).

    A deserializer converts a stored value to the type of the value it
    replaces; a running sum that starts as the int 0 and becomes a float
    array, or a value that starts as None, must instead come back as
    stored.
    """
    if isinstance(serializer, serializer_module.Serializer):
        serializer(key, value)
        return value
    return serializer(key, None)
