/* Interface of the seed-file project (shapes.c, text.c). */
#ifndef SEEDFILE_H
#define SEEDFILE_H
long rectangleArea(long width, long height);
long areaSum(int count);
unsigned textChecksum(const char *text);
#endif
