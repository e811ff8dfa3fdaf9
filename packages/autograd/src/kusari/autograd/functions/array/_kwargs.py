"""Rejecting keyword arguments Chainer removed."""


def reject_kwargs(func_name, kwargs):
    """Raise for any keyword argument; ``use_cudnn`` gets a pointer to the
    configuration that replaced it."""
    if 'use_cudnn' in kwargs:
        raise ValueError(
            f'{func_name}: the use_cudnn argument is no longer supported; '
            f"use chainer.using_config('use_cudnn', ...) instead")
    if kwargs:
        raise TypeError(f'{func_name}: unexpected keyword arguments: '
                        f'{", ".join(sorted(kwargs))}')
