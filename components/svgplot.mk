# SVG charts (components/svgplot.h): sources and tests.
