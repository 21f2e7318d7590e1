// The single Boost.Math error policy of the statistics engine (STYLE.md: one
// error-policy header). Domain and pole errors throw std::domain_error so a
// caller can never mistake a NaN for a result; overflow of a quantile returns
// infinity (a legitimate "unbounded" answer for extreme levels). Doubles are not
// promoted to long double, so results match R's double-precision values.
#pragma once

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/policies/policy.hpp>

namespace alea::analysis {

using MathPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::throw_on_error>,
    boost::math::policies::pole_error<boost::math::policies::throw_on_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<boost::math::policies::throw_on_error>,
    boost::math::policies::promote_double<false>>;

using Normal = boost::math::normal_distribution<double, MathPolicy>;
using StudentsT = boost::math::students_t_distribution<double, MathPolicy>;
using FisherF = boost::math::fisher_f_distribution<double, MathPolicy>;
using ChiSquared = boost::math::chi_squared_distribution<double, MathPolicy>;
using Binomial = boost::math::binomial_distribution<double, MathPolicy>;

} // namespace alea::analysis
