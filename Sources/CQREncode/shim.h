#pragma once
#include <qrencode.h>
