// Interface of the LTO project's C++ library (words.cpp).
#pragma once
#include <string>
#include <vector>

std::string joinWords(const std::vector<std::string> &words);
