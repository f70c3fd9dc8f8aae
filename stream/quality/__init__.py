"""Measuring and calibrating the checker on labelled claims (`citegate eval`, `calibrate`).
The only package that may import numpy or matplotlib."""
