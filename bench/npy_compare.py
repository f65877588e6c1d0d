#!/usr/bin/env python3
"""Compare two .npy arrays without numpy (Python standard library only).

    python3 bench/npy_compare.py A.npy REF.npy [--tol T]

Prints the relative error max|A - REF| / max|REF| (the plain max |A - REF| when
REF is all zeros) as one number. Both files must hold arrays of the same shape
in C order, little-endian float32 (also accepted: float64, int32, int64).
A NaN in either array, where the other is not NaN, prints "nan".

Exit status: 0; with --tol, 1 when the error is above T (or nan); 2 on a bad
file or a shape mismatch (with a message on stderr).
"""
import array
import ast
import math
import struct
import sys

TYPES = {"<f4": ("f", 4), "<f8": ("d", 8), "<i4": ("i", 4), "<i8": ("q", 8)}


class NpyError(Exception):
    pass


def read_npy(path):
    with open(path, "rb") as f:
        buf = f.read()
    if len(buf) < 10 or buf[:6] != b"\x93NUMPY":
        raise NpyError("%s: not a .npy file" % path)
    major = buf[6]
    if major == 1:
        (hlen,) = struct.unpack_from("<H", buf, 8)
        start = 10
    elif major in (2, 3):
        (hlen,) = struct.unpack_from("<I", buf, 8)
        start = 12
    else:
        raise NpyError("%s: unsupported .npy version %d" % (path, major))
    try:
        header = ast.literal_eval(buf[start:start + hlen].decode("latin1"))
        descr, fortran, shape = header["descr"], header["fortran_order"], tuple(header["shape"])
    except (ValueError, SyntaxError, KeyError, TypeError):
        raise NpyError("%s: bad .npy header" % path)
    if fortran:
        raise NpyError("%s: Fortran-order arrays are not supported" % path)
    if descr not in TYPES:
        raise NpyError("%s: unsupported dtype %s" % (path, descr))
    code, size = TYPES[descr]
    count = 1
    for d in shape:
        count *= d
    data = buf[start + hlen:]
    if len(data) != count * size:
        raise NpyError("%s: expected %d data bytes, found %d" % (path, count * size, len(data)))
    a = array.array(code)
    if a.itemsize != size:
        raise NpyError("%s: this Python's '%s' array is not %d bytes" % (path, code, size))
    a.frombytes(data)
    if sys.byteorder == "big":
        a.byteswap()
    return shape, a


def rel_error(a, ref):
    diff = 0.0
    scale = 0.0
    for x, y in zip(a, ref):
        if x != x or y != y:                 # NaN
            if not (x != x and y != y):
                return float("nan")
            continue
        d = abs(x - y)
        if d > diff or d != d:               # inf - inf is nan
            diff = d
        ay = abs(y)
        if ay > scale:
            scale = ay
    if diff != diff:
        return float("nan")
    return diff / scale if scale > 0 else diff


def main(argv):
    args = argv[1:]
    tol = None
    if "--tol" in args:
        i = args.index("--tol")
        try:
            tol = float(args[i + 1])
        except (IndexError, ValueError):
            sys.stderr.write("npy_compare.py: --tol needs a number\n")
            return 2
        del args[i:i + 2]
    if len(args) != 2:
        sys.stderr.write("usage: npy_compare.py A.npy REF.npy [--tol T]\n")
        return 2
    try:
        sa, a = read_npy(args[0])
        sr, r = read_npy(args[1])
    except (OSError, NpyError) as e:
        sys.stderr.write("npy_compare.py: %s\n" % e)
        return 2
    if sa != sr:
        sys.stderr.write("npy_compare.py: shapes differ: %s is %s, %s is %s\n"
                         % (args[0], list(sa), args[1], list(sr)))
        return 2
    err = rel_error(a, r)
    print("nan" if math.isnan(err) else "%.3g" % err)
    if tol is not None and not (err <= tol):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
